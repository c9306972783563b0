/**
 * Smart orders on a venue without them: the engine emulates them. The entry goes out as a plain
 * order now; once it is final with a fill, the stop-loss and target go out as an OCO pair (keyed
 * `<tag>.sl` / `<tag>.tg`, see tags.ts) for the filled quantity, and the first leg to fill cancels
 * its sibling. Venues with smart orders get them natively (the router sends the smart calls).
 */
import { isTerminalStatus, oppositeSide } from '../../core/enums.js';
import type { OrderSnapshot } from '../../core/events.js';
import type { PlaceIntent, SmartIntent, SmartLegName } from '../../core/intents.js';
import type { OrderStateMachine } from './order-state-machine.js';
import { legTag } from './tags.js';
import type { VenueOrderRequest } from './venue.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What the emulation asks of the router. */
export interface LegRouter {
  /** Sends a place for an emulated leg of `parent` (journaled like any other place). */
  placeEmulatedLeg(tag: string, intent: PlaceIntent, req: VenueOrderRequest, parent: string): void;
  /** Cancels a working order (or holds the cancel until its id is known). */
  cancelOrder(target: OrderSnapshot): void;
  /** Whether a cancel for this order is already held. */
  isCancelHeld(tag: string): boolean;
}

interface EmulatedSmart {
  readonly intent: SmartIntent;
  legsPlaced: boolean;
}

export class SmartEmulation {
  private readonly emulated = new Map<string, EmulatedSmart>();

  constructor(
    private readonly orders: OrderStateMachine,
    private readonly router: LegRouter,
  ) {}

  /** Starts emulating a smart order; the router places its entry as a plain order. */
  track(i: SmartIntent): void {
    this.emulated.set(i.id, { intent: i, legsPlaced: false });
  }

  has(parent: string): boolean {
    return this.emulated.has(parent);
  }

  /** An emulated entry that filled still has its legs to place. */
  legsOwed(parent: string, entry: OrderSnapshot | undefined): boolean {
    const em = this.emulated.get(parent);
    return em !== undefined && !em.legsPlaced && entry !== undefined && entry.filledQty > 0;
  }

  forget(parent: string): void {
    this.emulated.delete(parent);
  }

  /** OCO emulation: legs after the entry fills, one cancels the other. */
  onOrder(o: OrderSnapshot): void {
    const em = this.emulated.get(o.tag);
    if (em && !em.legsPlaced && isTerminalStatus(o.status) && o.filledQty > 0) {
      em.legsPlaced = true;
      const i = em.intent;
      const side = oppositeSide(i.side);
      const base = { strategyId: i.strategyId, instrument: i.instrument, qty: o.filledQty, validity: 'DAY' as const, product: i.product, side };
      if (i.stopLoss) this.placeLeg(i.id, 'stopLoss', { ...base, orderType: 'STOP_LOSS', triggerPrice: i.stopLoss.triggerPrice, ...(i.stopLoss.limitPrice !== undefined ? { limitPrice: i.stopLoss.limitPrice } : {}) });
      if (i.target) this.placeLeg(i.id, 'target', { ...base, orderType: 'LIMIT', limitPrice: i.target.limitPrice ?? i.target.triggerPrice });
      return;
    }
    if (o.parentTag && this.emulated.has(o.parentTag) && o.filledQty > 0) {
      const sibling = this.orders.get(legTag(o.parentTag, o.leg === 'stopLoss' ? 'target' : 'stopLoss'));
      if (sibling && !isTerminalStatus(sibling.status) && !this.router.isCancelHeld(sibling.tag)) this.router.cancelOrder(sibling);
    }
  }

  private placeLeg(parent: string, leg: SmartLegName, p: Omit<PlaceIntent, 'kind' | 'id'>): void {
    const tag = legTag(parent, leg);
    const i: PlaceIntent = { kind: 'place', id: tag, ...p };
    this.orders.create({ tag, strategyId: p.strategyId, instrument: p.instrument, side: p.side, qty: p.qty, orderType: p.orderType, product: p.product, validity: p.validity, limitPrice: p.limitPrice, triggerPrice: p.triggerPrice, parentTag: parent, leg });
    const req: Mutable<VenueOrderRequest> = { tag, instrument: p.instrument, side: p.side, qty: p.qty, orderType: p.orderType, validity: p.validity, product: p.product, isAmo: false };
    if (p.limitPrice !== undefined) req.limitPrice = p.limitPrice;
    if (p.triggerPrice !== undefined) req.triggerPrice = p.triggerPrice;
    this.router.placeEmulatedLeg(tag, i, req, parent);
  }
}
