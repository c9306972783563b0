/**
 * Round trips from fills, first in first out per instrument: each closing quantity is matched
 * against the oldest open quantity. A fill that flips a position closes the old side and opens
 * the new one. Charges are spread over the parts of a fill in proportion to quantity with
 * cumulative rounding, so the parts add up to the fill's charges to the paisa. Each trade says why
 * it ended (`exitReason`, from the tag of the fill that closed it).
 */
import type { Side } from '../../src/core/enums.js';
import type { Paise } from '../../src/core/money.js';

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
}

/**
 * Why a trade ended: the strategy's own order, the engine's intraday exit before the square-off,
 * or the broker's intraday square-off (risk/rules/square-off.ts).
 */
export const ExitReason = { STRATEGY: 'strategy', INTRADAY_EXIT: 'intraday-exit', SQUARE_OFF: 'square-off' } as const;
export type ExitReason = (typeof ExitReason)[keyof typeof ExitReason];

export interface TradeRecord {
  readonly instrument: string;
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
  readonly exitReason: ExitReason;
}

export interface OpenLot {
  readonly instrument: string;
  readonly direction: 'long' | 'short';
  readonly qty: number;
  readonly entryTs: number;
  readonly entryPrice: Paise;
  readonly charges: Paise;
}

interface Lot {
  qty: number;
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

export function pairTrades(fills: readonly FillRecord[], exitReasonOf: (tag: string) => ExitReason = () => ExitReason.STRATEGY): { trades: TradeRecord[]; open: OpenLot[] } {
  const books = new Map<string, Lot[]>();
  const trades: TradeRecord[] = [];
  for (const f of fills) {
    let lots = books.get(f.instrument);
    if (!lots) books.set(f.instrument, (lots = []));
    const sign = f.side === 'BUY' ? 1 : -1;
    let rem = f.qty;
    let fillCharges = f.charges;
    let fillQty = f.qty;
    let exitReason: ExitReason | undefined;
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
        direction: lot.sign === 1 ? 'long' : 'short',
        qty: q,
        entryTs: lot.ts,
        entryPrice: lot.price,
        exitTs: f.ts,
        exitPrice: f.price,
        grossPnl: gross,
        charges,
        netPnl: gross - charges,
        exitReason: (exitReason ??= exitReasonOf(f.tag)),
      });
      lot.qty -= q;
      rem -= q;
      if (lot.qty === 0) lots.shift();
    }
    if (rem > 0) lots.push({ qty: rem, ts: f.ts, price: f.price, sign, charges: fillCharges, chargedQty: fillQty });
  }
  const open: OpenLot[] = [];
  for (const [instrument, lots] of books) {
    for (const l of lots) {
      open.push({ instrument, direction: l.sign === 1 ? 'long' : 'short', qty: l.qty, entryTs: l.ts, entryPrice: l.price, charges: l.charges });
    }
  }
  return { trades, open };
}
