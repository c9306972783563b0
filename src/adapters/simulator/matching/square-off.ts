/**
 * The broker's intraday square-off, over the engine's `MatchingState` (the rule, its times and
 * words: risk/rules/square-off.ts). At a segment's square-off time:
 *   1. every open INTRADAY order of the segment is cancelled ("Cancelled by the broker: ..."),
 *      smart orders whole (entry and legs);
 *   2. every open INTRADAY position of the segment is closed by a MARKET order of the broker's
 *      own (remarks `BROKER-SQUAREOFF`), shown in the order and trade books like any order. It
 *      takes the book at once, in the simulator and in a backtest alike: the broker's order goes
 *      out at that minute whatever the engine's `matchOnArrival`, so a backtest closes at the
 *      last price of the square-off minute, not at the next candle;
 *   3. until the next session opens, an INTRADAY order (not an AMO) that opens or adds to a
 *      position in the segment is refused (`cutoffRefusal`, used by admission).
 */
import type { Side } from '../../../core/enums.js';
import { istDate } from '../../../core/time.js';
import { freezeQuantity, largestSlice } from '../../../risk/rules/freeze-quantity.js';
import {
  intradayCutoffMessage,
  isSquaredOffProduct,
  opensOrAdds,
  SQUARE_OFF_REMARKS,
  squareOffCancelReason,
  squareOffSegment,
  type SquareOffSegment,
} from '../../../risk/rules/square-off.js';
import type { MatchingState } from './matching-state.js';
import { Phase, TERMINAL, type OrderState } from './order-state.js';
import { smartLive } from './smart-orders.js';
import { SmartStatus } from './venue-status.js';

/** Squares off `segment` at `ts` (see the file comment); returns the broker orders placed. */
export function squareOff(st: MatchingState, segment: SquareOffSegment, ts: number): OrderState[] {
  if (!st.sessionOpen || st.squaredOff.has(segment)) return [];
  const reason = squareOffCancelReason(st.squareOffTimes[segment]);
  for (const book of st.books.values()) {
    if (squareOffSegment(book.instrument) !== segment) continue;
    for (const o of [...book.working]) if (!o.smart && isSquaredOffProduct(o.product)) st.finish(o, Phase.CANCELLED, reason, ts);
  }
  for (const smart of st.smartMap.values()) {
    if (!smartLive(smart) || !isSquaredOffProduct(smart.entry.product) || squareOffSegment(smart.entry.instrument) !== segment) continue;
    for (const o of [smart.entry, smart.stopLoss, smart.target]) if (o && !TERMINAL.has(o.phase)) st.finish(o, Phase.CANCELLED, reason, ts);
    smart.status = SmartStatus.CANCELLED;
    st.emitSmart(smart, ts);
  }
  const placed: OrderState[] = [];
  for (const p of st.account.openPositionsOf('INTRADAY')) {
    if (squareOffSegment(p.instrument) !== segment) continue;
    const side: Side = p.netQty > 0 ? 'SELL' : 'BUY';
    // The broker's own orders respect the freeze limit too: a larger position goes in slices.
    const total = Math.abs(p.netQty);
    const freeze = p.instrument.segment === 'FNO' ? freezeQuantity(p.instrument, istDate(ts)) : undefined;
    const cap = freeze === undefined ? total : Math.max(largestSlice(freeze, p.instrument.lotSize), p.instrument.lotSize);
    for (let left = total; left > 0; left -= Math.min(cap, left)) {
      const o = st.newOrder({
        prefix: p.instrument.segment === 'EQUITY' ? 'EQ' : 'DRV',
        instrument: p.instrument,
        side,
        product: p.product,
        requestedOrderType: 'MARKET',
        validity: 'DAY',
        isAmo: false,
        qty: Math.min(cap, left),
        limitPrice: undefined,
        triggerPrice: undefined,
        marketLike: true,
        remarks: SQUARE_OFF_REMARKS,
        algoId: '99999',
        isTsl: false,
        tslStepSize: undefined,
        now: ts,
        leg: undefined,
      });
      const refused = st.admit(o, ts);
      // matchOnArrival engines (the simulator) have taken the book already; a backtest's has none
      // to take, and fills at the last price of the candle the square-off comes at (inside it).
      if (refused === undefined && !st.settings.matchOnArrival && o.phase === Phase.WORKING) {
        st.fillAtLast(o, ts);
        o.fresh = false;
      }
      placed.push(o);
    }
  }
  st.squaredOff.add(segment);
  st.flush();
  return placed;
}

/**
 * After the segment's square-off, an INTRADAY order that opens or adds to a position is refused
 * with the rule's words; undefined when the order may go on.
 */
export function cutoffRefusal(st: MatchingState, o: OrderState): string | undefined {
  // After-market orders are for the next session, which starts afresh.
  if (!isSquaredOffProduct(o.product) || o.isAmo || o.remarks === SQUARE_OFF_REMARKS) return undefined;
  const segment = squareOffSegment(o.instrument);
  if (segment === undefined || !st.squaredOff.has(segment)) return undefined;
  const net = st.account.position(o.instrument.id, o.product)?.netQty ?? 0;
  return opensOrAdds(o.side, o.qty, net) ? intradayCutoffMessage(o.instrument, st.squareOffTimes[segment]) : undefined;
}
