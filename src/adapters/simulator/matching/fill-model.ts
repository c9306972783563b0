/**
 * The fill model: how one order fills against one market update. The one fill model of tarang:
 * the backtest (candles played as paths) and paper trading (the simulator's ticks) both fill
 * through these functions. They are pure over plain inputs (an order's fields, the book's levels,
 * the settings' numbers); the one thing they write is the `taken` map a caller hands in, which
 * records the quantity already taken from each level since the last update.
 *
 * Rules:
 * - A trigger fires when the price reaches it: `triggerDir` +1 fires at price >= trigger, -1 at
 *   price <= trigger (`triggerFired`).
 * - A taker (an arrival, a just-triggered stop, a just-released AMO: an order not yet matched
 *   against any update) takes the opposite side level by level within its limit (`walk`): the
 *   update's depth, else the depth provider's book for an arrival, else the top of book, else
 *   `ltp` with unlimited quantity (`takerLevels`). Quantity taken from a level is remembered until
 *   the next update, so two takers between updates do not both take it.
 * - A resting order (`tick` mode) is hit at its own limit price by whatever quantity crosses it
 *   (`tickFills`).
 * - `open` and `path` updates (candles) fill one price (`barFill`): at `open` everything
 *   crossed fills at `ltp` (gaps fill at the open). A `path` update is a monotone segment from
 *   `from` (the previous point, or the point a smart leg armed at) to `ltp`: a resting limit fills
 *   at its limit (at `from` when the segment started beyond it); a stop triggered on the segment
 *   fills where the segment first reached its trigger: the trigger, or `from` when the segment
 *   started beyond it (a leg armed past its trigger), never at a price the segment did not pass;
 *   a stop-limit fills there when that is within its limit, else at its limit if the rest of the
 *   segment comes back to it. A resting limit fills only when `ltp` crosses it.
 * - Slippage (`slip`): `slippageTicks` ticks against a market-like order (MARKET, or a stop with no
 *   limit), never below one tick; a fill never goes beyond the order's limit, nor (candles) outside
 *   the candle's [low, high]: every fill lies inside its candle.
 * - MARKET orders carry a protection price as their limit (`protectionPrice`): the reference price
 *   +/- `marketProtectionPct` percent, rounded to the tick towards the reference, clamped to the
 *   circuit band, at least one tick.
 *
 * The caller (`MatchingState.matchOnUpdate`) decides the quantity cap (the update's
 * `availableQty` per side) and books the fills.
 */
import type { Side } from '../../../core/enums.js';
import type { Paise } from '../../../core/money.js';
import type { Book, Fill, OrderState } from './order-state.js';
import { protectionPrice } from '../../../risk/rules/market-protection.js';
import type { BookLevel, Depth } from './types.js';

/** The fields of an order the fill model reads (the engine passes its `OrderState`). */
export type FillOrder = Pick<OrderState, 'side' | 'qty' | 'filledQty' | 'limitPrice' | 'triggerPrice' | 'triggerDir' | 'marketLike' | 'instrument'>;

/** true when `ltp` has reached the order's trigger. */
export function triggerFired(o: FillOrder, ltp: Paise): boolean {
  const p = o.triggerPrice!;
  return o.triggerDir === 1 ? ltp >= p : ltp <= p;
}

/** Opposite-side levels an order can take: `depth`, top of book, or ltp (see the file comment). */
export function takerLevels(book: Book, side: Side, depth: Depth | undefined): readonly BookLevel[] {
  if (depth) {
    const lv = side === 'BUY' ? depth.asks : depth.bids;
    if (lv.length > 0) return lv;
  }
  const top = side === 'BUY' ? book.ask : book.bid;
  if (top !== undefined) return [{ price: top, qty: (side === 'BUY' ? book.askQty : book.bidQty) ?? Infinity }];
  return book.ltp === undefined ? [] : [{ price: book.ltp, qty: Infinity }];
}

/**
 * Walks levels within the order's limit, up to `cap`, consuming them in `taken` (price -> qty
 * taken since the last update). `priced` false: only measures the crossing quantity (the prices
 * are the levels', unslipped).
 */
export function walk(o: FillOrder, levels: readonly BookLevel[], taken: Map<Paise, number>, cap: number, priced: boolean, slippageTicks: number): Fill[] {
  const fills: Fill[] = [];
  let want = Math.min(o.qty - o.filledQty, cap);
  const limit = o.limitPrice;
  for (const lv of levels) {
    if (want <= 0) break;
    if (limit !== undefined && (o.side === 'BUY' ? lv.price > limit : lv.price < limit)) break;
    const free = lv.qty - (taken.get(lv.price) ?? 0);
    if (free <= 0) continue;
    const q = Math.min(want, free);
    taken.set(lv.price, (taken.get(lv.price) ?? 0) + q);
    want -= q;
    let price = lv.price;
    if (priced) {
      price = slip(o, price, slippageTicks);
      if (limit !== undefined && (o.side === 'BUY' ? price > limit : price < limit)) price = limit;
    }
    const last = fills[fills.length - 1];
    if (last && last.price === price) fills[fills.length - 1] = { price, qty: last.qty + q };
    else fills.push({ price, qty: q });
  }
  return fills;
}

/** `tick` mode: a taker walks the levels; a resting order fills at its limit by what crosses it. */
export function tickFills(o: FillOrder, levels: readonly BookLevel[], taken: Map<Paise, number>, cap: number, taker: boolean, slippageTicks: number): Fill[] {
  if (taker) return walk(o, levels, taken, cap, true, slippageTicks);
  const crossing = walk(o, levels, taken, cap, false, slippageTicks);
  let qty = 0;
  for (const f of crossing) qty += f.qty;
  return qty > 0 && o.limitPrice !== undefined ? [{ price: o.limitPrice, qty }] : [];
}

/**
 * A candle point as one order sees it: `to` is the update's price, `from` where the order's view
 * of the segment starts (path mode), `low`/`high` the candle's range (absent: unbounded).
 */
export interface BarSegment {
  readonly mode: 'open' | 'path';
  readonly to: Paise;
  readonly from: Paise | undefined;
  readonly low: Paise | undefined;
  readonly high: Paise | undefined;
}

/**
 * `open` / `path` mode: the path point the order trades at and its fill price (the point, slipped
 * and kept inside the candle), or undefined when it does not fill.
 */
export function barFill(o: FillOrder, seg: BarSegment, taker: boolean, slippageTicks: number): { point: Paise; price: Paise } | undefined {
  const buy = o.side === 'BUY';
  const limit = o.limitPrice;
  const ltp = seg.to;
  const from = seg.mode === 'path' ? seg.from : undefined;
  let point: Paise;
  if (seg.mode === 'open') point = ltp;
  else if (taker && o.triggerPrice !== undefined) {
    // Just triggered on this segment: where the segment first reached the trigger.
    const reached = from !== undefined && triggerFired(o, from) ? from : o.triggerPrice;
    if (o.marketLike || limit === undefined || (buy ? reached <= limit : reached >= limit)) point = reached;
    else if (buy ? ltp <= limit : ltp >= limit) point = limit;
    else return undefined;
  } else if (taker) point = ltp;
  else {
    if (limit !== undefined && !(buy ? ltp <= limit : ltp >= limit)) return undefined;
    point = limit ?? ltp;
    // A segment that started beyond the limit offered its start price.
    if (limit !== undefined && from !== undefined && (buy ? from < limit : from > limit)) point = from;
  }
  let price = slip(o, point, slippageTicks);
  if (seg.high !== undefined && price > seg.high) price = seg.high;
  if (seg.low !== undefined && price < seg.low) price = seg.low;
  if (limit !== undefined && (buy ? price > limit : price < limit)) return undefined;
  return { point, price };
}

/** Slippage against a market-like order: `ticks` ticks worse, never below one tick. */
export function slip(o: FillOrder, price: Paise, ticks: number): Paise {
  if (ticks === 0 || !o.marketLike) return price;
  const tick = o.instrument.tickSize;
  const d = ticks * tick;
  return o.side === 'BUY' ? price + d : Math.max(tick, price - d);
}

/** MARKET protection is the rule of src/risk/rules/market-protection.ts, shared with risk. */
export { protectionPrice };
