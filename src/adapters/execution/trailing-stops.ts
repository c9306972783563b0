/**
 * Trailing stop-losses the venue does not trail itself. The live broker accepts `is_tsl` and
 * ignores it (spec 3.4, "announced"), so the engine trails: each trailing smart order is announced
 * once (a lifecycle event and an info alert say the trail is emulated by tarang, not live at the
 * broker), and then its stop-loss leg follows favourable movement by the step and holds when the
 * price turns, as spec 3.4 describes:
 *
 *   BUY:  stop = initial stop + floor((highest since entry - entry price) / step) x step
 *   SELL: stop = initial stop - floor((entry price - lowest since entry) / step) x step
 *
 * The modification budget (25 per order) is spent with care: the leg is only modified when the
 * stop would move by at least `minTicks` ticks (and a whole step); from `replaceAt` modifications
 * on, the venue's leg is cancelled and the stop is held locally: when the price touches it, the
 * engine exits the remaining quantity at market and cancels the target leg.
 *
 * A move is only believed once it is not refused: if risk or the venue refuses a trailing modify,
 * the stop falls back to what the venue's leg really holds (its last accepted trigger), the refusal
 * is logged and alerted (TRAILING_MODIFY_REFUSED), and the trail does not ask for that level again;
 * it tries the next, higher level when the price makes one.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { isTerminalStatus } from '../../core/enums.js';
import type { OrderSnapshot, TickEvent } from '../../core/events.js';
import type { Intent, SmartIntent } from '../../core/intents.js';
import type { InstrumentLookup } from '../../core/instruments.js';
import { formatRupees, roundToTick, type Paise } from '../../core/money.js';
import type { Logger } from '../../core/log.js';
import { silentLogger } from '../../core/silent-log.js';
import type { OrderStateMachine } from './order-state-machine.js';
import { legTag } from './tags.js';

export interface TrailingStopsOptions {
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly orders: OrderStateMachine;
  readonly instruments: InstrumentLookup;
  /** The venue trails natively: nothing to do here. */
  readonly venueTrails: boolean;
  readonly minTicks: number;
  readonly replaceAt: number;
  /** Hands an intent to risk and execution (through the bus). */
  readonly submit: (intent: Intent) => void;
  /**
   * Executes a protective exit (a local stop that was touched) without risk checks: it only
   * closes, and must work even when trading is halted.
   */
  readonly protect: (intent: Intent) => void;
  readonly newTag: (strategyId?: string) => string;
  readonly log?: Logger;
}

interface Trail {
  readonly intent: SmartIntent;
  readonly tick: Paise;
  readonly step: Paise;
  active: boolean;
  ref: Paise;
  best: Paise;
  stop: Paise;
  local: boolean;
  done: boolean;
  /** The last stop level a modify for it was refused (not asked for again). */
  refused: Paise | undefined;
}

export class TrailingStops {
  private readonly trails = new Map<string, Trail>();
  private readonly byInstrument = new Map<string, Trail[]>();
  /** Trailing modifies in flight, by intent id: the trail and the stop it asked for. */
  private readonly moves = new Map<string, { trail: Trail; stop: Paise }>();
  private readonly log: Logger;

  constructor(private readonly o: TrailingStopsOptions) {
    this.log = o.log ?? silentLogger();
    if (o.venueTrails) return;
    o.bus.on('intent', (e) => {
      const i = e.intent;
      if (i.kind !== 'smart' || i.trailingStep === undefined || !i.stopLoss) return;
      const tick = o.instruments.get(i.instrument)?.tickSize ?? 5;
      const t: Trail = { intent: i, tick, step: i.trailingStep, active: false, ref: 0, best: 0, stop: i.stopLoss.triggerPrice, local: false, done: false, refused: undefined };
      this.trails.set(i.id, t);
      const list = this.byInstrument.get(i.instrument) ?? [];
      list.push(t);
      this.byInstrument.set(i.instrument, list);
    });
    // A smart intent that risk (or the venue) refused never trails.
    o.bus.on('denied', (d) => {
      const move = this.moves.get(d.intent.id);
      if (move) return this.refusedMove(d.intent.id, move.trail, move.stop, d.reason);
      const t = this.trails.get(d.intent.id);
      if (t && !t.active) this.finish(t);
    });
    // A move the venue took (or the order moved on): stop tracking its answer.
    o.bus.on('order', (e) => {
      if (this.moves.size === 0 || e.order.leg !== 'stopLoss' || e.order.triggerPrice === undefined) return;
      for (const [id, m] of this.moves) {
        if (m.trail.intent.id === e.order.parentTag && (e.order.triggerPrice === m.stop || isTerminalStatus(e.order.status))) this.moves.delete(id);
      }
    });
  }

  /**
   * A trailing modify was refused (by risk or the venue): the venue's leg still holds its previous
   * trigger, so the trail falls back to that stop instead of believing the higher one.
   */
  private refusedMove(id: string, t: Trail, asked: Paise, reason: string): void {
    this.moves.delete(id);
    if (t.done || t.local) return;
    const leg = this.o.orders.get(legTag(t.intent.id, 'stopLoss'));
    const held = leg?.triggerPrice ?? t.intent.stopLoss!.triggerPrice;
    t.stop = held;
    t.refused = t.refused === undefined ? asked : t.intent.side === 'BUY' ? Math.max(t.refused, asked) : Math.min(t.refused, asked);
    this.log.warn({ tag: t.intent.id, asked, held, reason }, 'trailing stop: move refused; the stop stays where the venue holds it');
    this.o.bus.publish({
      type: 'alert', ts: this.o.clock.now(), level: 'warn', code: 'TRAILING_MODIFY_REFUSED',
      message: `trailing stop of ${t.intent.id}: move to ${formatRupees(asked)} refused (${reason}); the stop stays at ${formatRupees(held)}`,
      context: { tag: t.intent.id, asked, held },
    });
  }

  /** Number of trails being followed (for status and tests). */
  get active(): number {
    let n = 0;
    for (const t of this.trails.values()) if (t.active && !t.done) n++;
    return n;
  }

  onTick(t: TickEvent): void {
    if (this.byInstrument.size === 0) return;
    this.onPrice(t.instrument, t.ltp, t.ltp, t.ltp);
  }

  /** A price range seen (a tick, or a candle's high/low). */
  onPrice(instrument: string, high: Paise, low: Paise, _last: Paise): void {
    // Every candle of a backtest comes here; most runs trail nothing.
    if (this.byInstrument.size === 0) return;
    const list = this.byInstrument.get(instrument);
    if (!list) return;
    for (const t of list) if (t.active && !t.done) this.follow(t, high, low);
  }

  onOrder(order: OrderSnapshot): void {
    if (this.trails.size === 0) return;
    const parentTag = order.parentTag ?? order.tag;
    const t = this.trails.get(parentTag);
    if (!t || t.done) return;
    if (order.tag === parentTag) {
      if (!t.active && order.filledQty > 0) {
        t.active = true;
        t.ref = Math.round(order.filledValue / order.filledQty) || (t.intent.limitPrice ?? t.intent.triggerPrice ?? 0);
        t.best = t.ref;
        this.o.bus.publish({ type: 'lifecycle', ts: this.o.clock.now(), phase: 'trailing_stop', source: 'execution', detail: `trailing stop of ${t.intent.id} is emulated by the engine (the venue does not trail): step ${formatRupees(t.step)}, stop ${formatRupees(t.stop)}` });
        this.o.bus.publish({ type: 'alert', ts: this.o.clock.now(), level: 'info', code: 'TRAILING_EMULATED', message: `trailing stop of ${t.intent.id} is run by tarang, not live at the broker` });
      } else if (isTerminalStatus(order.status) && order.filledQty === 0) this.finish(t);
      return;
    }
    // The stop only ever moves in the favourable direction (a snapshot published before our modify
    // was acknowledged carries the old trigger and must not pull it back).
    if (order.leg === 'stopLoss' && !t.local && order.triggerPrice !== undefined && !isTerminalStatus(order.status)) {
      t.stop = t.intent.side === 'BUY' ? Math.max(t.stop, order.triggerPrice) : Math.min(t.stop, order.triggerPrice);
    }
    if ((order.leg === 'stopLoss' && !t.local) || order.leg === 'target') {
      if (isTerminalStatus(order.status) && order.filledQty > 0) this.finish(t);
    }
  }

  private follow(t: Trail, high: Paise, low: Paise): void {
    const buy = t.intent.side === 'BUY';
    if (t.local && (buy ? low <= t.stop : high >= t.stop)) return this.fireLocal(t);
    if (buy ? high > t.best : low < t.best) t.best = buy ? high : low;
    const steps = Math.floor((buy ? t.best - t.ref : t.ref - t.best) / t.step);
    if (steps <= 0) return;
    const raw = t.intent.stopLoss!.triggerPrice + (buy ? 1 : -1) * steps * t.step;
    const desired = roundToTick(raw, t.tick, buy ? 'down' : 'up');
    const gain = buy ? desired - t.stop : t.stop - desired;
    if (gain < this.o.minTicks * t.tick || gain <= 0) return;
    // Not again at (or short of) a level already refused.
    if (!t.local && t.refused !== undefined && (buy ? desired <= t.refused : desired >= t.refused)) return;
    const slTag = legTag(t.intent.id, 'stopLoss');
    const leg = this.o.orders.get(slTag);
    if (t.local) {
      t.stop = desired;
      return;
    }
    if (!leg || isTerminalStatus(leg.status) || !leg.orderId) return;
    if (this.o.orders.modifications(leg.tag) >= this.o.replaceAt) {
      // Out of modification budget: take the stop home.
      t.local = true;
      t.stop = desired;
      this.o.submit({ kind: 'cancel', id: this.o.newTag(), strategyId: t.intent.strategyId, target: t.intent.id, leg: 'stopLoss' });
      this.o.bus.publish({ type: 'alert', ts: this.o.clock.now(), level: 'warn', code: 'TRAILING_LOCAL', message: `trailing stop of ${t.intent.id} used ${leg.modifications} modifications; now held by the engine at ${formatRupees(desired)} (cancelled at the venue)` });
      return;
    }
    const limitShift = leg.limitPrice !== undefined ? desired - t.stop : undefined;
    t.stop = desired;
    const id = this.o.newTag();
    this.moves.set(id, { trail: t, stop: desired });
    this.o.submit({
      kind: 'modify',
      id,
      strategyId: t.intent.strategyId,
      target: t.intent.id,
      leg: 'stopLoss',
      triggerPrice: desired,
      ...(limitShift !== undefined && leg.limitPrice !== undefined ? { limitPrice: leg.limitPrice + limitShift } : {}),
    });
  }

  private fireLocal(t: Trail): void {
    this.finish(t);
    const entry = this.o.orders.get(t.intent.id);
    const tgt = this.o.orders.get(legTag(t.intent.id, 'target'));
    const sl = this.o.orders.get(legTag(t.intent.id, 'stopLoss'));
    const remaining = (entry?.filledQty ?? 0) - (tgt?.filledQty ?? 0) - (sl?.filledQty ?? 0);
    if (tgt && !isTerminalStatus(tgt.status)) this.o.submit({ kind: 'cancel', id: this.o.newTag(), strategyId: t.intent.strategyId, target: t.intent.id, leg: 'target' });
    if (remaining <= 0) return;
    this.o.bus.publish({ type: 'lifecycle', ts: this.o.clock.now(), phase: 'trailing_stop', source: 'execution', detail: `local trailing stop of ${t.intent.id} touched at ${formatRupees(t.stop)}: exiting ${remaining} at market` });
    this.o.protect({
      kind: 'place', id: this.o.newTag(t.intent.strategyId), strategyId: t.intent.strategyId, instrument: t.intent.instrument, side: t.intent.side === 'BUY' ? 'SELL' : 'BUY',
      qty: remaining, orderType: 'MARKET', validity: 'DAY', product: t.intent.product,
    });
  }

  private finish(t: Trail): void {
    t.done = true;
    for (const [id, m] of this.moves) if (m.trail === t) this.moves.delete(id);
    this.trails.delete(t.intent.id);
    const list = this.byInstrument.get(t.intent.instrument);
    if (list) {
      const rest = list.filter((x) => x !== t);
      if (rest.length) this.byInstrument.set(t.intent.instrument, rest);
      else this.byInstrument.delete(t.intent.instrument);
    }
  }
}
