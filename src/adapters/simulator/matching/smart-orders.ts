/**
 * Smart orders (spec 3.4, 3.5): an entry (LIMIT, MARKET or TRIGGER) with optional stop-loss and
 * target legs. The legs wait DORMANT (blocking nothing) until the entry fills, then arm as an OCO
 * pair for the filled quantity; a fill of one shrinks or cancels the other. With trailing on, the
 * stop-loss follows favourable movement in whole steps. A smart order lives across sessions until
 * it completes, is cancelled, or is `smartOrderTtlDays` old (sessions.ts expires it).
 *
 * Functions over the engine's `MatchingState`; `MatchingEngine` dispatches to them.
 */
import type { Side } from '../../../core/enums.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import { DAY_MS } from '../../../core/time.js';
import { checkSmartLegBounds, smartEntryPrice } from '../../../risk/rules/smart-leg-bounds.js';
import { VenueInputError, VenueOrderError } from './errors.js';
import type { MatchingState } from './matching-state.js';
import { normaliseRemarks } from './remarks.js';
import { Phase, TERMINAL, smartSnapshot, snapshot, venueStatusOf, type OrderState, type SmartState } from './order-state.js';
import type { CancelOrderResult, ModifyOrderResult, ModifySmartOrderRequest, SmartOrderRequest, SmartOrderResult } from './types.js';
import { SmartStatus, VenueStatus } from './venue-status.js';
import { checkModifiable, checkOneOf, circuitRefusal, checkPrice, checkProduct, checkQty, freezeRefusal, legMarketRefusal, PRODUCTS, SIDES, SMART_TYPES, tradable, VALIDITIES } from './validation.js';

/** The fields an entry and its legs share (see `placeSmartOrder`). */
interface SmartCommon {
  readonly instrument: Instrument;
  readonly product: SmartOrderRequest['product'];
  readonly validity: SmartOrderRequest['validity'];
  readonly isAmo: boolean;
  readonly qty: number;
  readonly remarks: string;
  readonly algoId: string;
  readonly isTsl: boolean;
  readonly tslStepSize: Paise | undefined;
  readonly now: number;
}

/**
 * Places a smart order: an entry (LIMIT, MARKET or TRIGGER) with optional stop-loss and target
 * legs that become an OCO pair once the entry fills. Leg bounds per spec 3.5 (`checkSmartLegBounds`)
 * and trailing rules (spec 3.4) are checked first: a violation throws VenueInputError with the
 * exact message and records nothing.
 */
export function placeSmartOrder(st: MatchingState, req: SmartOrderRequest): SmartOrderResult {
  const now = st.clock.now();
  checkOneOf('txn_type', req.side, SIDES);
  checkOneOf('order_type', req.entryType, SMART_TYPES);
  checkOneOf('validity', req.validity, VALIDITIES);
  checkOneOf('product', req.product, PRODUCTS);
  const instrument = tradable(st.instruments, req.instrument);
  checkQty(instrument, req.qty, 'qty');
  checkProduct(instrument, req.product);
  const remarks = normaliseRemarks(req.remarks);
  const type = req.entryType;
  if (type === 'LIMIT' && req.limitPrice === undefined) throw new VenueInputError('limit_price: required for a LIMIT smart order', {});
  if (type === 'TRIGGER' && req.triggerPrice === undefined) throw new VenueInputError('trigger_price: required for a TRIGGER smart order', {});
  for (const [name, v] of [
    ['limit_price', type === 'LIMIT' ? req.limitPrice : undefined],
    ['trigger_price', type === 'TRIGGER' ? req.triggerPrice : undefined],
    ['trigger_limit_price', type === 'TRIGGER' ? req.triggerLimitPrice : undefined],
    ['sl_trigger_price', req.stopLoss?.triggerPrice],
    ['sl_limit_price', req.stopLoss?.limitPrice],
    ['tgt_trigger_price', req.target?.triggerPrice],
    ['tgt_limit_price', req.target?.limitPrice],
  ] as const) {
    if (v !== undefined) checkPrice(instrument, v, name);
  }
  const book = st.book(instrument);
  const entryPrice = smartEntryPrice(type, {
    limitPrice: req.limitPrice,
    triggerPrice: req.triggerPrice,
    triggerLimitPrice: req.triggerLimitPrice,
    lastPrice: book.ltp,
  });
  if (entryPrice === undefined && (req.stopLoss || req.target)) {
    throw new VenueInputError(`No price is known yet for ${instrument.id}: a MARKET smart order with legs needs one`, { instrument: instrument.id });
  }
  if (entryPrice !== undefined) {
    const bound = checkSmartLegBounds({
      side: req.side,
      entryPrice,
      slTriggerPrice: req.stopLoss?.triggerPrice,
      tgtTriggerPrice: req.target?.triggerPrice,
    });
    if (bound) throw new VenueInputError(bound, { entryPrice, side: req.side });
  }
  const isTsl = req.isTsl ?? false;
  const trailing = isTsl && st.settings.tsl === 'on';
  if (trailing) {
    if (type === 'TRIGGER') throw new VenueInputError('is_tsl: trailing stop-loss is not supported for TRIGGER orders', {});
    if (!req.stopLoss) throw new VenueInputError('is_tsl: trailing stop-loss requires a stop-loss leg (sl_trigger_price)', {});
    if (req.tslStepSize === undefined || req.tslStepSize <= 0) {
      throw new VenueInputError('tsl_step_size: required and positive when is_tsl is true', { tslStepSize: req.tslStepSize });
    }
  }
  if (req.tslStepSize !== undefined && trailing) checkPrice(instrument, req.tslStepSize, 'tsl_step_size');

  const prefix = instrument.segment === 'EQUITY' ? 'EQ' : 'DRV';
  const common: SmartCommon = {
    instrument,
    product: req.product,
    validity: req.validity,
    isAmo: false,
    qty: req.qty,
    remarks,
    algoId: req.algoId ?? '99999',
    isTsl,
    tslStepSize: req.tslStepSize,
    now,
  };
  const entry = st.newOrder({
    ...common,
    prefix,
    side: req.side,
    requestedOrderType: type === 'LIMIT' ? 'LIMIT' : type === 'MARKET' ? 'MARKET' : 'STOP_LOSS',
    limitPrice: type === 'LIMIT' ? req.limitPrice : type === 'TRIGGER' ? req.triggerLimitPrice : undefined,
    triggerPrice: type === 'TRIGGER' ? req.triggerPrice : undefined,
    marketLike: type === 'MARKET' || (type === 'TRIGGER' && req.triggerLimitPrice === undefined),
    leg: 'entry',
  });
  if (type === 'TRIGGER' && req.triggerPrice !== undefined) {
    // A GTT trigger fires when the price reaches it from wherever the market is now.
    const ref = book.ltp;
    entry.triggerDir = ref === undefined ? (req.side === 'BUY' ? 1 : -1) : req.triggerPrice >= ref ? 1 : -1;
  }
  const stopLoss = req.stopLoss ? newLeg(st, common, req.side, 'stopLoss', req.stopLoss) : undefined;
  const target = req.target ? newLeg(st, common, req.side, 'target', req.target) : undefined;
  const smart: SmartState = {
    orderId: entry.orderId,
    entry,
    stopLoss,
    target,
    status: SmartStatus.CREATED,
    entryType: type,
    trailing,
    isTsl,
    tslStepSize: req.tslStepSize,
    trailRef: undefined,
    createdAt: now,
    expiresAt: now + st.settings.smartOrderTtlDays * DAY_MS,
    remarks,
  };
  for (const o of [entry, stopLoss, target]) if (o) o.smart = smart;
  st.smartMap.set(smart.orderId, smart);
  for (const leg of [stopLoss, target]) {
    if (!leg) continue;
    st.orderMap.set(leg.orderId, leg);
    st.emitOrder(leg, now);
  }
  const reason = st.admit(entry, now);
  for (const leg of [stopLoss, target]) if (leg) st.dayOrders.push(leg);
  if (reason !== undefined) {
    smart.status = SmartStatus.FAILED;
    for (const leg of [stopLoss, target]) if (leg) st.finish(leg, Phase.CANCELLED, `Entry failed: ${reason}`, now);
  }
  st.emitSmart(smart, now);
  st.flush();
  return { orderId: smart.orderId, status: SmartStatus.CREATED, smart: smartSnapshot(smart) };
}

/** A DORMANT exit leg on the other side of the entry. */
function newLeg(st: MatchingState, common: SmartCommon, entrySide: Side, leg: 'stopLoss' | 'target', prices: { triggerPrice: Paise; limitPrice?: Paise }): OrderState {
  const o = st.newOrder({
    ...common,
    prefix: 'GTT',
    side: entrySide === 'BUY' ? 'SELL' : 'BUY',
    requestedOrderType: 'STOP_LOSS',
    limitPrice: prices.limitPrice,
    triggerPrice: prices.triggerPrice,
    marketLike: prices.limitPrice === undefined,
    leg,
  });
  // Stop-loss fires on adverse movement, target on favourable (for a BUY entry: below / above).
  const adverseDown = entrySide === 'BUY';
  o.triggerDir = leg === 'stopLoss' ? (adverseDown ? -1 : 1) : adverseDown ? 1 : -1;
  o.phase = Phase.DORMANT;
  return o;
}

/**
 * Modifies one part of a smart order by its own id: the entry (qty, limit, trigger) while it has
 * not filled, or a leg (trigger, limit). While the entry has not filled, leg bounds are checked
 * again against the entry price (spec 3.5); once it has, a leg is checked against the last price.
 */
export function modifySmartOrder(st: MatchingState, o: OrderState, smart: SmartState, changes: ModifySmartOrderRequest): ModifyOrderResult {
  const orderId = o.orderId;
  const now = st.clock.now();
  checkModifiable(o, st.settings.maxModifications);
  const inst = o.instrument;
  for (const [name, v] of [
    ['limit_price', changes.limitPrice],
    ['trigger_price', changes.triggerPrice],
  ] as const) {
    if (v !== undefined) checkPrice(inst, v, name);
  }
  if (o.leg === 'entry') {
    if (o.filledQty > 0) throw new VenueOrderError(`Order ${orderId}: the entry has started filling and can no longer be modified`, { orderId });
    const qty = changes.qty ?? o.qty;
    checkQty(inst, qty, 'qty');
    const limitPrice = changes.limitPrice ?? o.limitPrice;
    const triggerPrice = changes.triggerPrice ?? o.triggerPrice;
    const entryPrice = smart.entryType === 'TRIGGER' ? (limitPrice ?? triggerPrice) : smart.entryType === 'LIMIT' ? limitPrice : st.book(inst).ltp;
    if (entryPrice !== undefined) {
      const bound = checkSmartLegBounds({
        side: o.side,
        entryPrice,
        slTriggerPrice: smart.stopLoss?.triggerPrice,
        tgtTriggerPrice: smart.target?.triggerPrice,
      });
      if (bound) throw new VenueInputError(bound, { entryPrice });
    }
    const refusal = (qty !== o.qty ? freezeRefusal(inst, qty, now) : undefined) ?? circuitRefusal(st.book(inst), limitPrice);
    if (refusal) throw new VenueOrderError(refusal, { orderId });
    st.reblock(o, qty, limitPrice, triggerPrice);
    o.qty = qty;
    o.limitPrice = limitPrice;
    o.triggerPrice = triggerPrice;
    for (const leg of [smart.stopLoss, smart.target]) {
      if (leg && leg.phase === Phase.DORMANT) {
        leg.qty = qty;
        leg.updatedAt = now;
      }
    }
  } else {
    if (changes.qty !== undefined && changes.qty !== o.qty) {
      throw new VenueInputError('qty: a smart-order leg takes its quantity from the entry and cannot be changed', { orderId });
    }
    const triggerPrice = changes.triggerPrice ?? o.triggerPrice;
    if (smart.entry.filledQty > 0) {
      // The entry has filled: the leg protects a position, so it is checked against the market
      // like a regular stop (spec 3.5's entry bound is a placement rule). A trailing stop may then
      // rise above the entry price and lock in profit.
      if (changes.triggerPrice !== undefined) {
        const refusal = legMarketRefusal(st.book(inst), o, changes.triggerPrice);
        if (refusal) throw new VenueInputError(refusal, { orderId, lastPrice: st.book(inst).ltp });
      }
    } else {
      const entryPrice = smartEntryPriceOf(st, smart);
      if (entryPrice !== undefined && triggerPrice !== undefined) {
        const bound = checkSmartLegBounds({
          side: smart.entry.side,
          entryPrice,
          ...(o.leg === 'stopLoss' ? { slTriggerPrice: triggerPrice } : { tgtTriggerPrice: triggerPrice }),
        });
        if (bound) throw new VenueInputError(bound, { entryPrice });
      }
    }
    o.triggerPrice = triggerPrice;
    if (changes.limitPrice !== undefined) o.limitPrice = changes.limitPrice;
  }
  if (o.leg === 'entry' && changes.limitPrice !== undefined && o.phase === Phase.WORKING) st.requeue(o);
  o.modifications++;
  o.updatedAt = now;
  st.emitOrder(o, now);
  if (o.leg === 'entry' && st.settings.matchOnArrival && st.sessionOpen && o.phase === Phase.WORKING) {
    st.takeOnArrival(o, now);
    o.fresh = false;
  }
  st.emitSmart(smart, now);
  st.flush();
  return { orderId, venueStatus: VenueStatus.MODIFIED, order: snapshot(o) };
}

/**
 * Cancels by id: the parent (entry) id cancels the whole smart order (entry if working, and the
 * legs); a leg id cancels that leg only.
 */
export function cancelSmartOrder(st: MatchingState, o: OrderState, smart: SmartState): CancelOrderResult {
  const orderId = o.orderId;
  const now = st.clock.now();
  if (o.leg === 'entry') {
    if (!smartLive(smart)) {
      throw new VenueOrderError(`Smart order ${orderId} is ${smart.status} and cannot be cancelled`, { orderId, status: smart.status });
    }
    if (!TERMINAL.has(o.phase)) st.finish(o, Phase.CANCELLED, 'Cancelled by user', now);
    for (const leg of [smart.stopLoss, smart.target]) if (leg && !TERMINAL.has(leg.phase)) st.finish(leg, Phase.CANCELLED, 'Cancelled by user', now);
    smart.status = SmartStatus.CANCELLED;
  } else {
    if (TERMINAL.has(o.phase)) {
      throw new VenueOrderError(`Order ${orderId} is ${venueStatusOf(o)} and cannot be cancelled`, { orderId, status: venueStatusOf(o) });
    }
    st.finish(o, Phase.CANCELLED, 'Cancelled by user', now);
    settleSmart(smart);
  }
  st.emitSmart(smart, now);
  st.flush();
  const order = snapshot(o);
  return { orderId, venueStatus: order.venueStatus, order };
}

// ---------------------------------------------------------------------------------------------
// The life of a placed smart order

/** A part of a smart order filled: arm the legs (entry done), or settle the OCO pair (a leg). */
export function onSmartFill(st: MatchingState, o: OrderState, ts: number): void {
  const smart = o.smart!;
  if (o.leg === 'entry') {
    if (o.phase === Phase.FILLED) armLegs(st, smart, ts);
    return;
  }
  // OCO: the sibling covers only what this leg has not closed yet; once this leg is done it goes.
  const sibling = o.leg === 'stopLoss' ? smart.target : smart.stopLoss;
  if (sibling && !TERMINAL.has(sibling.phase)) {
    const left = o.qty - o.filledQty;
    if (left <= 0) st.finish(sibling, Phase.CANCELLED, `OCO: ${o.leg === 'stopLoss' ? 'stop-loss' : 'target'} leg ${o.orderId} filled`, ts);
    else {
      sibling.qty = sibling.filledQty + left;
      sibling.updatedAt = ts;
      st.emitOrder(sibling, ts);
    }
  }
  settleSmart(smart);
  st.emitSmart(smart, ts);
}

/** The entry of a CREATED smart order was cancelled or expired (`MatchingState.finish`). */
export function entryEnded(st: MatchingState, smart: SmartState, ts: number): void {
  // An entry that ends part-filled still protects what it bought.
  if (smart.entry.filledQty > 0) armLegs(st, smart, ts);
  else {
    for (const l of [smart.stopLoss, smart.target]) if (l && l.phase === Phase.DORMANT) st.finish(l, Phase.CANCELLED, 'Entry not filled', ts);
    settleSmart(smart);
  }
}

/** The entry is done (filled, or finished with a partial fill): legs go live for the filled quantity. */
function armLegs(st: MatchingState, smart: SmartState, ts: number): void {
  const entry = smart.entry;
  const legs = [smart.stopLoss, smart.target].filter((l): l is OrderState => l !== undefined && l.phase === Phase.DORMANT);
  if (entry.filledQty === 0) {
    for (const l of legs) st.finish(l, Phase.CANCELLED, 'Entry not filled', ts);
    settleSmart(smart);
    st.emitSmart(smart, ts);
    return;
  }
  smart.trailRef = Math.round(entry.filledValue / entry.filledQty);
  for (const l of legs) {
    l.qty = entry.filledQty;
    l.phase = Phase.TRIGGER;
    l.fresh = false;
    l.armedAt = st.fillPoint;
    if (l.armedAt !== undefined) st.armedLegs++;
    l.updatedAt = ts;
    st.book(l.instrument).working.push(l);
    st.emitOrder(l, ts);
  }
  smart.status = legs.length > 0 ? SmartStatus.ACTIVE : SmartStatus.COMPLETED;
  st.emitSmart(smart, ts);
}

/** Smart status from its parts once something finished. */
export function settleSmart(smart: SmartState): void {
  if (smart.status !== SmartStatus.ACTIVE && smart.status !== SmartStatus.CREATED) return;
  const legs = [smart.stopLoss, smart.target].filter((l): l is OrderState => l !== undefined);
  if (!TERMINAL.has(smart.entry.phase)) return;
  if (legs.some((l) => !TERMINAL.has(l.phase))) return;
  if (legs.some((l) => l.phase === Phase.FILLED) || (legs.length === 0 && smart.entry.phase === Phase.FILLED)) smart.status = SmartStatus.COMPLETED;
  else if (smart.entry.phase === Phase.EXPIRED) smart.status = SmartStatus.EXPIRED;
  else smart.status = SmartStatus.CANCELLED;
}

/** Trailing stop-loss (spec 3.4): the trigger follows favourable movement in whole steps and holds when price turns. */
export function trail(st: MatchingState, o: OrderState, ltp: Paise, ts: number): void {
  const smart = o.smart!;
  const step = smart.tslStepSize;
  if (step === undefined || step <= 0 || smart.trailRef === undefined) return;
  const long = smart.entry.side === 'BUY';
  const gain = long ? ltp - smart.trailRef : smart.trailRef - ltp;
  if (gain < step) return;
  const move = Math.floor(gain / step) * step;
  const d = long ? move : -move;
  smart.trailRef += d;
  o.triggerPrice = o.triggerPrice! + d;
  if (o.limitPrice !== undefined) o.limitPrice += d;
  o.updatedAt = ts;
  st.emitOrder(o, ts);
}

function smartEntryPriceOf(st: MatchingState, smart: SmartState): Paise | undefined {
  const e = smart.entry;
  if (smart.entryType === 'LIMIT') return e.limitPrice;
  if (smart.entryType === 'TRIGGER') return e.limitPrice ?? e.triggerPrice;
  return e.filledQty > 0 ? Math.round(e.filledValue / e.filledQty) : st.book(e.instrument).ltp;
}

/** Still working (CREATED or ACTIVE): kept across day rolls and expiries. */
export function smartLive(s: SmartState): boolean {
  return s.status === SmartStatus.CREATED || s.status === SmartStatus.ACTIVE;
}
