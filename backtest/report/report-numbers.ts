/**
 * The numbers a trader asks of a run beyond the headline metrics: returns by month and year,
 * breakdowns by instrument, strategy and exit reason, charges by component, turnover and the
 * longest flat period. Pure functions of the report input; money stays in integer paise.
 *
 * Conventions: a month's (year's) return is its last end-of-day equity against the previous
 * month's (the starting cash for the first), so months chain to the total return. A flat period
 * is a stretch of equity samples with no open position, from the first flat sample to the next
 * sample with a position (or the last sample).
 */
import type { Paise } from '../../src/core/money.js';
import { DAY_MS, IST_OFFSET_MS, istDate } from '../../src/core/time.js';
import type { EquityCurve } from '../metrics/equity-curve.js';
import { dailyEquity } from '../metrics/performance.js';
import type { ExitReason, FillRecord, OpenLot, TradeRecord } from '../metrics/trades.js';

export interface PeriodReturn {
  /** `2024-03` for a month, `2024` for a year. */
  readonly period: string;
  readonly startEquity: number;
  readonly endEquity: number;
  /** endEquity / startEquity - 1. */
  readonly ret: number;
}

/** Monthly and yearly returns from end-of-day equity. */
export function periodReturns(curve: EquityCurve, startingCash: Paise): { months: PeriodReturn[]; years: PeriodReturn[] } {
  const days = dailyEquity(curve);
  const by = (keyLen: number): PeriodReturn[] => {
    const out: PeriodReturn[] = [];
    let start = startingCash;
    let key: string | undefined;
    let last = startingCash;
    for (const [day, e] of days) {
      const k = istDate(day * DAY_MS - IST_OFFSET_MS + 12 * 3_600_000).slice(0, keyLen);
      if (key !== undefined && k !== key) {
        out.push({ period: key, startEquity: start, endEquity: last, ret: start > 0 ? last / start - 1 : 0 });
        start = last;
      }
      key = k;
      last = e;
    }
    if (key !== undefined) out.push({ period: key, startEquity: start, endEquity: last, ret: start > 0 ? last / start - 1 : 0 });
    return out;
  };
  return { months: by(7), years: by(4) };
}

export interface Breakdown {
  readonly key: string;
  readonly trades: number;
  readonly wins: number;
  readonly grossPnl: Paise;
  readonly charges: Paise;
  readonly netPnl: Paise;
  /** Sum of qty x price over the fills of this key, paise. */
  readonly turnover: Paise;
  readonly fills: number;
}

type MutableBreakdown = { -readonly [K in keyof Breakdown]: Breakdown[K] };

function group(trades: readonly TradeRecord[], fills: readonly FillRecord[], keyOfTrade: (t: TradeRecord) => string, keyOfFill: (f: FillRecord) => string): Breakdown[] {
  const rows = new Map<string, MutableBreakdown>();
  const row = (key: string): MutableBreakdown => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { key, trades: 0, wins: 0, grossPnl: 0, charges: 0, netPnl: 0, turnover: 0, fills: 0 }));
    return r;
  };
  for (const f of fills) {
    const r = row(keyOfFill(f));
    r.turnover += f.qty * f.price;
    r.fills++;
  }
  for (const t of trades) {
    const r = row(keyOfTrade(t));
    r.trades++;
    if (t.netPnl > 0) r.wins++;
    r.grossPnl += t.grossPnl;
    r.charges += t.charges;
    r.netPnl += t.netPnl;
  }
  return [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function byInstrument(trades: readonly TradeRecord[], fills: readonly FillRecord[]): Breakdown[] {
  return group(trades, fills, (t) => t.instrument, (f) => f.instrument);
}

export function byStrategy(trades: readonly TradeRecord[], fills: readonly FillRecord[], fallback: string): Breakdown[] {
  return group(trades, fills, (t) => t.strategyId ?? fallback, (f) => f.strategyId ?? fallback);
}

export interface ExitReasonRow {
  readonly reason: ExitReason;
  readonly trades: number;
  readonly wins: number;
  /** Net of charges; for `end-of-data` the open lots marked at `lastPrice` (absent when unknown). */
  readonly netPnl: Paise | null;
}

/**
 * Round trips by why they ended, plus the lots still open at the end (`end-of-data`), marked at
 * each instrument's last price when it is known, net of their entry charges.
 */
export function byExitReason(trades: readonly TradeRecord[], open: readonly OpenLot[], lastPrice: (instrument: string) => Paise | undefined): ExitReasonRow[] {
  const rows = new Map<ExitReason, { trades: number; wins: number; netPnl: Paise | null }>();
  for (const t of trades) {
    const r = rows.get(t.exitReason) ?? { trades: 0, wins: 0, netPnl: 0 };
    r.trades++;
    if (t.netPnl > 0) r.wins++;
    r.netPnl = (r.netPnl ?? 0) + t.netPnl;
    rows.set(t.exitReason, r);
  }
  for (const o of open) {
    const r = rows.get('end-of-data') ?? { trades: 0, wins: 0, netPnl: 0 };
    const p = lastPrice(o.instrument);
    const pnl = p === undefined ? null : (o.direction === 'long' ? p - o.entryPrice : o.entryPrice - p) * o.qty - o.charges;
    r.trades++;
    if (pnl !== null && pnl > 0) r.wins++;
    r.netPnl = r.netPnl === null || pnl === null ? null : r.netPnl + pnl;
    rows.set('end-of-data', r);
  }
  return [...rows.entries()].map(([reason, r]) => ({ reason, ...r })).sort((a, b) => b.trades - a.trades || (a.reason < b.reason ? -1 : 1));
}

/** Charges by component over all fills, paise; `total` is what the fills were booked. */
export interface ChargeTotals {
  readonly brokerage: Paise;
  readonly stt: Paise;
  readonly exchange: Paise;
  readonly sebi: Paise;
  readonly stampDuty: Paise;
  readonly gst: Paise;
  readonly total: Paise;
  /** Fills per preset that priced them (under `auto`, the preset chosen per instrument and product). */
  readonly presets: Readonly<Record<string, number>>;
}

export interface FlatPeriod {
  readonly from: number;
  readonly to: number;
  readonly ms: number;
}

/** The longest stretch of equity samples with no open position (undefined when never flat). */
export function longestFlat(curve: EquityCurve): FlatPeriod | undefined {
  let best: FlatPeriod | undefined;
  let since = NaN;
  for (let i = 0; i < curve.length; i++) {
    const t = curve.ts[i]!;
    if (curve.exposed[i] === 0) {
      if (Number.isNaN(since)) since = t;
      continue;
    }
    if (!Number.isNaN(since) && (!best || t - since > best.ms)) best = { from: since, to: t, ms: t - since };
    since = NaN;
  }
  if (!Number.isNaN(since) && curve.length > 0) {
    const t = curve.ts[curve.length - 1]!;
    if (!best || t - since > best.ms) best = { from: since, to: t, ms: t - since };
  }
  return best;
}

/** Sum of qty x price over every fill, paise. */
export function turnover(fills: readonly FillRecord[]): Paise {
  let s = 0;
  for (const f of fills) s += f.qty * f.price;
  return s;
}
