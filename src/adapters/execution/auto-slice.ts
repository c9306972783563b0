/**
 * Auto-slicing (`execution.autoSlice: true`): an F&O order above its underlying's freeze quantity
 * of the day (src/risk/rules/freeze-quantity.ts) is placed as at most `maxSlices` orders of at most
 * the freeze quantity, each a whole number of lots, as even as lots allow.
 *
 * - The order the strategy asked for keeps its tag and is a record of its own (`slices: n`) that
 *   is never sent: its state aggregates the slices' (filled quantity and value summed; FILLED when
 *   all are; final when all are), and it is the only one of them the strategy hears of.
 * - Each slice is an ordinary order tagged `<tag>.s<k>` (`sliceTag`, `sliceOf` set): journaled
 *   before it leaves, funded, placed once and never retried, reconciled by its tag like any order,
 *   so none is lost or sent twice. The slices go out one after another through the same venue
 *   calls as any order, so the broker client's per-segment order limiter (the retail-algo rate)
 *   queues a burst of them rather than letting the broker refuse it.
 * - Partial failure: a refused slice is reported as a VENUE_REJECTED denial naming the slice; the
 *   others go on. Once all are final the aggregate is FILLED, or REJECTED (nothing filled and a
 *   slice refused), or CANCELLED, with a reason that counts what filled and names each refused
 *   slice.
 * - Cancelling the aggregate cancels its working slices. A price change is applied to each working
 *   slice; a quantity change is denied (cancel and place again), as is a change once a slice is
 *   near the modification cap (its cancel-and-replace would leave the group).
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { isTerminalStatus, type OrderStatus } from '../../core/enums.js';
import { DenialCode, type OrderSnapshot } from '../../core/events.js';
import type { ModifyIntent, PlaceIntent } from '../../core/intents.js';
import type { InstrumentLookup } from '../../core/instruments.js';
import type { Logger } from '../../core/log.js';
import { istDate } from '../../core/time.js';
import { freezeQuantity, freezeRules, sliceQuantities } from '../../risk/rules/freeze-quantity.js';
import type { OrderStateMachine } from './order-state-machine.js';
import { sliceTag } from './tags.js';

/** What the slicer asks of the execution engine. */
export interface SliceRouter {
  /** Places one slice as an ordinary order (record, funds, journal, write), `sliceOf` its group. */
  placeSlice(intent: PlaceIntent, sliceOf: string): void;
  cancelOrder(target: OrderSnapshot): void;
  modifySlice(intent: ModifyIntent): void;
  denySliced(intent: ModifyIntent, code: DenialCode, reason: string): void;
}

interface Group {
  readonly tag: string;
  readonly qty: number;
  readonly slices: readonly string[];
}

export class AutoSlicer {
  private readonly groups = new Map<string, Group>();

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly orders: OrderStateMachine,
    private readonly instruments: InstrumentLookup,
    private readonly router: SliceRouter,
    private readonly replaceAt: number,
    private readonly log: Logger,
  ) {}

  /** Places `i` in slices when it is above the freeze quantity; false when it is not to be sliced. */
  place(i: PlaceIntent): boolean {
    const inst = this.instruments.get(i.instrument);
    if (!inst || inst.segment !== 'FNO') return false;
    const rules = freezeRules();
    const freeze = freezeQuantity(inst, istDate(this.clock.now()), rules);
    if (freeze === undefined || i.qty <= freeze) return false;
    const qtys = sliceQuantities(i.qty, freeze, inst.lotSize, rules.maxSlices);
    if (!qtys) {
      // Risk denies these before they get here; an engine-made exit this large goes whole (and the
      // broker refuses it in its own words) rather than partly.
      this.log.warn({ tag: i.id, qty: i.qty, freeze }, 'execution: order above the freeze quantity needs more slices than allowed; sent whole');
      return false;
    }
    const slices = qtys.map((_, k) => sliceTag(i.id, k + 1));
    const group: Group = { tag: i.id, qty: i.qty, slices };
    this.groups.set(i.id, group);
    this.orders.create({
      tag: i.id, strategyId: i.strategyId, instrument: i.instrument, side: i.side, qty: i.qty, orderType: i.orderType, product: i.product,
      validity: i.validity, limitPrice: i.limitPrice, triggerPrice: i.triggerPrice, parentTag: undefined, leg: undefined, replaces: undefined, slices: slices.length,
    });
    this.log.info({ tag: i.id, qty: i.qty, freeze, slices: qtys }, 'execution: order above the freeze quantity placed in slices');
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: 'order_sliced', source: 'execution', detail: `order ${i.id} of ${i.qty} above the freeze quantity ${freeze} of ${inst.symbol}: ${qtys.length} slices of ${qtys.join(', ')}` });
    qtys.forEach((qty, k) => this.router.placeSlice({ ...i, id: slices[k]!, qty }, i.id));
    return true;
  }

  /** Whether `tag` is an auto-sliced order this engine tracks. */
  has(tag: string): boolean {
    return this.groups.has(tag);
  }

  /** A slice changed: recompute its group's aggregate. */
  onOrder(o: OrderSnapshot): void {
    if (o.sliceOf === undefined) return;
    const g = this.groups.get(o.sliceOf);
    if (!g) return;
    let filledQty = 0;
    let done = 0;
    let working = false;
    let settling = false;
    let cancelled = false;
    const refused: string[] = [];
    g.slices.forEach((tag, k) => {
      const s = this.orders.getExact(tag);
      if (!s) return;
      if (s.settling) settling = true;
      filledQty += s.filledQty;
      if (isTerminalStatus(s.status)) {
        done++;
        if (s.status === 'REJECTED') refused.push(`slice ${k + 1}/${g.slices.length} (${tag}) rejected: ${s.reason ?? 'no reason given'}`);
        else if (s.status !== 'FILLED') cancelled = true;
      } else if (s.status !== 'PENDING_NEW') working = true;
    });
    let status: OrderStatus;
    let reason: string | undefined;
    if (done === g.slices.length) {
      if (filledQty === g.qty) status = 'FILLED';
      else {
        status = filledQty === 0 && refused.length === g.slices.length ? 'REJECTED' : 'CANCELLED';
        const what = refused.length > 0 ? refused.join('; ') : cancelled ? 'slices cancelled' : 'slices ended unfilled';
        reason = `${filledQty} of ${g.qty} filled in ${g.slices.length} slices; ${what}`;
      }
      // Kept until every slice's fills are booked: those still update the aggregate.
      if (!settling) {
        this.groups.delete(g.tag);
        if (status !== 'FILLED') this.log.warn({ tag: g.tag, filledQty, qty: g.qty, refused: refused.length }, 'execution: sliced order ended partly done');
      }
    } else {
      status = filledQty > 0 ? 'PARTIALLY_FILLED' : working ? 'OPEN' : 'PENDING_NEW';
      if (refused.length > 0) reason = refused.join('; ');
    }
    this.orders.setSliced(g.tag, g.slices, status, reason);
  }

  /** Cancels the group's working slices. */
  cancel(tag: string): void {
    const g = this.groups.get(tag);
    if (!g) return;
    for (const t of g.slices) {
      const s = this.orders.getExact(t);
      if (s && !isTerminalStatus(s.status)) this.router.cancelOrder(s);
    }
  }

  /** A change to the group: prices go to each working slice; quantities are refused. */
  modify(i: ModifyIntent): void {
    const g = this.groups.get(i.target);
    if (!g) return;
    if (i.qty !== undefined && i.qty !== g.qty) {
      return this.router.denySliced(i, DenialCode.INVALID_INTENT, `order ${g.tag} was placed in ${g.slices.length} slices; its quantity cannot be changed (cancel it and place again)`);
    }
    const live = g.slices.map((t) => this.orders.getExact(t)).filter((s): s is OrderSnapshot => s !== undefined && !isTerminalStatus(s.status));
    if (live.some((s) => s.modifications >= this.replaceAt)) {
      return this.router.denySliced(i, DenialCode.MODIFICATION_CAP, `a slice of order ${g.tag} is at its modification cap; cancel the order and place it again`);
    }
    for (const s of live) {
      const m: ModifyIntent = { kind: 'modify', id: i.id, strategyId: i.strategyId, target: s.tag };
      this.router.modifySlice(Object.assign(m, i.limitPrice !== undefined ? { limitPrice: i.limitPrice } : {}, i.triggerPrice !== undefined ? { triggerPrice: i.triggerPrice } : {}));
    }
  }
}
