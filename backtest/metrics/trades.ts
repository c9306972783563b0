/**
 * Round trips from fills, first in first out per instrument: each closing quantity is matched
 * against the oldest open quantity. A fill that flips a position closes the old side and opens
 * the new one. Charges are spread over the parts of a fill in proportion to quantity with
 * cumulative rounding, so the parts add up to the fill's charges to the paisa. Each trade says why
 * it ended (`exitReason`, from the tag of the fill that closed it).
 */
import type { Product, Side } from '../../src/core/enums.js';
import type { Paise } from '../../src/core/money.js';

/**
 * What sent the order a fill belongs to, as the fills and orders tell it: a strategy's own order
 * (`signal`), a smart order's stop-loss leg (`trailing` when it was trailed, by the venue or by the
 * engine's modifications), its target leg, or an exit intent (a strategy's square-off at its exit
 * time, or the kill switch flattening).
 */
export const FillVia = { SIGNAL: 'signal', STOP_LOSS: 'stop-loss', TARGET: 'target', TRAILING: 'trailing', SQUARE_OFF: 'square-off', INTRADAY_EXIT: 'intraday-exit' } as const;
export type FillVia = (typeof FillVia)[keyof typeof FillVia];

/** Why a round trip ended: its closing fill's `FillVia`, or `end-of-data` for a position still open. */
export const ExitReason = { ...FillVia, END_OF_DATA: 'end-of-data' } as const;
export type ExitReason = (typeof ExitReason)[keyof typeof ExitReason];

/** The readable name of an exit reason (reports). */
export const EXIT_REASON_LABEL: Readonly<Record<ExitReason, string>> = {
  signal: 'signal',
  'stop-loss': 'stop-loss leg',
  target: 'target leg',
  trailing: 'trailing stop',
  'square-off': 'square-off',
  'intraday-exit': 'intraday exit (before the square-off)',
  'end-of-data': 'end of data',
};

export interface FillRecord {
  readonly ts: number;
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  /** Brokerage + statutory charges of this fill, paise. */
  readonly charges: Paise;
  readonly tag: string;
  readonly orderId: string;
  readonly product?: Product;
  /** The strategy whose order filled (absent for orders that are not ours). */
  readonly strategyId?: string;
  /** What sent the order (absent: `signal`). */
  readonly via?: FillVia;
}

export interface TradeRecord {
  readonly instrument: string;
  readonly strategyId?: string;
  /** `long` (bought first) or `short` (sold first). */
  readonly direction: 'long' | 'short';
  readonly qty: number;
  readonly entryTs: number;
  readonly entryPrice: Paise;
  readonly exitTs: number;
  readonly exitPrice: Paise;
  /** (exit - entry) x qty for a long, the reverse for a short, paise. */
  readonly grossPnl: Paise;
  /** Charges of the entry and exit parts, paise. */
  readonly charges: Paise;
  readonly netPnl: Paise;
  /** The closing fill's `via`. */
  readonly exitReason: FillVia;
  /** The opening fill's `via` (a stop-loss leg can open a position too, when it overfills). */
  readonly entryVia: FillVia;
}

export interface OpenLot {
  readonly instrument: string;
  readonly direction: 'long' | 'short';
  readonly qty: number;
  readonly entryTs: number;
  readonly entryPrice: Paise;
  readonly charges: Paise;
  readonly strategyId?: string;
}

interface Lot {
  qty: number;
  readonly via: FillVia;
  readonly strategyId: string | undefined;
  readonly ts: number;
  readonly price: Paise;
  readonly sign: 1 | -1;
  /** Charges not yet attributed to a closed part, and the quantity they cover. */
  charges: Paise;
  chargedQty: number;
}

/** Takes `part` of `qty` units' worth of `charges`, with cumulative rounding (exact in total). */
function share(charges: Paise, qty: number, part: number): Paise {
  return part === qty ? charges : Math.round((charges * part) / qty);
}

/**
 * `viaOfTag` names what the fill's tag alone tells (the broker's square-off orders, the engine's
 * intraday exits); where it says nothing, the fill's own `via` stands.
 */
export function pairTrades(fills: readonly FillRecord[], viaOfTag: (tag: string) => FillVia | undefined = () => undefined): { trades: TradeRecord[]; open: OpenLot[] } {
  const books = new Map<string, Lot[]>();
  const trades: TradeRecord[] = [];
  for (const f of fills) {
    let lots = books.get(f.instrument);
    if (!lots) books.set(f.instrument, (lots = []));
    const sign = f.side === 'BUY' ? 1 : -1;
    let rem = f.qty;
    let fillCharges = f.charges;
    let fillQty = f.qty;
    const exitVia: FillVia = viaOfTag(f.tag) ?? f.via ?? 'signal';
    while (rem > 0 && lots.length > 0 && lots[0]!.sign !== sign) {
      const lot = lots[0]!;
      const q = Math.min(rem, lot.qty);
      const entryCharges = share(lot.charges, lot.chargedQty, q);
      lot.charges -= entryCharges;
      lot.chargedQty -= q;
      const exitCharges = share(fillCharges, fillQty, q);
      fillCharges -= exitCharges;
      fillQty -= q;
      const gross = lot.sign === 1 ? (f.price - lot.price) * q : (lot.price - f.price) * q;
      const charges = entryCharges + exitCharges;
      trades.push({
        instrument: f.instrument,
        ...(lot.strategyId !== undefined ? { strategyId: lot.strategyId } : {}),
        direction: lot.sign === 1 ? 'long' : 'short',
        qty: q,
        entryTs: lot.ts,
        entryPrice: lot.price,
        exitTs: f.ts,
        exitPrice: f.price,
        grossPnl: gross,
        charges,
        netPnl: gross - charges,
        exitReason: exitVia,
        entryVia: lot.via,
      });
      lot.qty -= q;
      rem -= q;
      if (lot.qty === 0) lots.shift();
    }
    if (rem > 0) lots.push({ qty: rem, via: f.via ?? 'signal', strategyId: f.strategyId, ts: f.ts, price: f.price, sign, charges: fillCharges, chargedQty: fillQty });
  }
  const open: OpenLot[] = [];
  for (const [instrument, lots] of books) {
    for (const l of lots) {
      open.push({ instrument, direction: l.sign === 1 ? 'long' : 'short', qty: l.qty, entryTs: l.ts, entryPrice: l.price, charges: l.charges, ...(l.strategyId !== undefined ? { strategyId: l.strategyId } : {}) });
    }
  }
  return { trades, open };
}
