/**
 * Results per instrument of a portfolio backtest (several instruments sharing one account): fills,
 * round trips, wins, net P&L of the closed trades and charges, from the run's fills and paired
 * trades. Exact paise; the report shows rupees.
 */
import type { Paise } from '../../src/core/money.js';
import type { FillRecord, OpenLot, TradeRecord } from './trades.js';

export interface InstrumentResult {
  readonly instrument: string;
  readonly fills: number;
  readonly trades: number;
  readonly wins: number;
  /** Net P&L of the closed round trips (after their charges), paise. */
  readonly netPnl: Paise;
  readonly charges: Paise;
  /** Quantity still open at the end (signed). */
  readonly openQty: number;
}

export function resultsByInstrument(instruments: readonly string[], fills: readonly FillRecord[], trades: readonly TradeRecord[], open: readonly OpenLot[]): InstrumentResult[] {
  const by = new Map<string, { fills: number; trades: number; wins: number; netPnl: number; charges: number; openQty: number }>(
    instruments.map((i) => [i, { fills: 0, trades: 0, wins: 0, netPnl: 0, charges: 0, openQty: 0 }]),
  );
  const get = (i: string): { fills: number; trades: number; wins: number; netPnl: number; charges: number; openQty: number } => {
    let r = by.get(i);
    if (!r) by.set(i, (r = { fills: 0, trades: 0, wins: 0, netPnl: 0, charges: 0, openQty: 0 }));
    return r;
  };
  for (const f of fills) {
    const r = get(f.instrument);
    r.fills++;
    r.charges += f.charges;
  }
  for (const t of trades) {
    const r = get(t.instrument);
    r.trades++;
    if (t.netPnl > 0) r.wins++;
    r.netPnl += t.netPnl;
  }
  for (const o of open) get(o.instrument).openQty += o.direction === 'long' ? o.qty : -o.qty;
  return [...by.entries()].map(([instrument, r]) => ({ instrument, ...r }));
}
