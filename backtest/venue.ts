/**
 * The backtester's ExecutionVenue: the simulator's matching engine (`src/adapters/simulator/
 * matching`, the one fill model of tarang) called in-process, answering with plain values so the
 * engine runs candle -> strategy -> risk -> venue -> fill -> portfolio synchronously.
 *
 * Translation only; no fill logic lives here. Two backtest-specific rules:
 * - After the close, a regular order goes in as an after-market order (AMO) and works from the next
 *   session's open, as placing it in the evening would. (Without this, every order a strategy
 *   sends on seeing the day's last bar, at 15:30, would be refused as "market closed".)
 * - Request errors the engine throws (off-tick price, lot size, leg bounds, the 26th modification)
 *   become `rejected` outcomes with the engine's message: the venue certainly did nothing.
 */
import { Observable, type Subscriber } from 'rxjs';
import type { Clock } from '../src/core/clock.js';
import type {
  ExecutionVenue,
  MarginEstimate,
  MarginRequest,
  VenueCancelRequest,
  VenueCapabilities,
  VenueFill,
  VenueFunds,
  VenueModifyRequest,
  VenueOrderRequest,
  VenueOrderState,
  VenuePosition,
  VenueSmartCancelRequest,
  VenueSmartModifyRequest,
  VenueSmartOrderRequest,
  VenueUpdate,
  WriteOutcome,
} from '../src/adapters/execution/venue.js';
import { modifyChange } from '../src/adapters/execution/venue.js';
import { isVenueError, type MatchingEngine } from '../src/adapters/simulator/matching/index.js';
import type { SimEvent, SimOrder, SimPosition, SimTrade, SmartOrderRequest } from '../src/adapters/simulator/matching/types.js';

/**
 * The matching engine's request for a venue smart order: our tag becomes `remarks`, and a
 * trailing step becomes `is_tsl` + `tsl_step_size` (execution sets it only when the venue trails).
 */
export function toSmartOrderRequest(req: VenueSmartOrderRequest): SmartOrderRequest {
  return {
    instrument: req.instrument,
    side: req.side,
    qty: req.qty,
    entryType: req.entryType,
    ...(req.limitPrice !== undefined ? { limitPrice: req.limitPrice } : {}),
    ...(req.triggerPrice !== undefined ? { triggerPrice: req.triggerPrice } : {}),
    ...(req.triggerLimitPrice !== undefined ? { triggerLimitPrice: req.triggerLimitPrice } : {}),
    ...(req.stopLoss ? { stopLoss: req.stopLoss } : {}),
    ...(req.target ? { target: req.target } : {}),
    ...(req.trailingStep !== undefined ? { isTsl: true, tslStepSize: req.trailingStep } : {}),
    validity: req.validity,
    product: req.product,
    remarks: req.tag,
  };
}

export function toVenueOrderState(o: SimOrder): VenueOrderState {
  // One literal with every field, absent ones undefined (what the engine tests for): all fields
  // in-object in one allocation. This runs for every order update of a backtest.
  const leg = o.leg;
  return {
    orderId: o.orderId,
    tag: o.remarks,
    instrument: o.instrument,
    side: o.side,
    qty: o.qty,
    // What was asked: a MARKET order is recorded as LIMIT at its protection price (wire-gaps).
    orderType: o.requestedOrderType,
    product: o.product,
    validity: o.validity,
    status: o.status,
    venueStatus: o.venueStatus,
    filledQty: o.filledQty,
    modifications: o.modifications,
    ts: o.updatedAt,
    limitPrice: o.requestedOrderType !== 'MARKET' ? o.limitPrice : undefined,
    triggerPrice: o.triggerPrice,
    avgPrice: o.filledQty > 0 ? o.avgPrice : undefined,
    reason: o.extraInfo ? o.extraInfo : undefined,
    leg,
    parentOrderId: leg !== undefined && leg !== 'entry' ? o.smartOrderId : undefined,
  };
}

export function toVenueFill(t: SimTrade): VenueFill {
  return {
    fillId: t.fillId,
    orderId: t.orderId,
    tag: t.remarks,
    instrument: t.instrument,
    side: t.side,
    qty: t.qty,
    price: t.price,
    product: t.product,
    charges: t.charges,
    ts: t.ts,
  };
}

function toVenuePosition(p: SimPosition, ts: number): VenuePosition {
  const v = { instrument: p.instrument, product: p.product, netQty: p.netQty, avgPrice: p.avgPrice, realizedPnl: p.realizedPnl, ts };
  // A derivative's expiry lets tarang book the venue's settlement of it (ExecutionEngine.settleExpired).
  return p.expiry === undefined ? v : { ...v, expiry: p.expiry };
}

function refused(e: unknown): WriteOutcome {
  if (isVenueError(e)) return { status: 'rejected', reason: e.message, errorCode: e.errorType };
  throw e;
}

/** A write the engine acks with the order's id and status: `accepted`, or its refusal. */
function settle(send: () => { readonly orderId: string; readonly venueStatus: string }): WriteOutcome {
  try {
    const r = send();
    return { status: 'accepted', orderId: r.orderId, venueStatus: r.venueStatus };
  } catch (e) {
    return refused(e);
  }
}

export interface BacktestVenueOptions {
  /** Trailing stops trailed by the matching engine (engine option tsl 'on'). */
  readonly nativeTrailing: boolean;
  /** Time stamps of position and funds reads. */
  readonly clock: Pick<Clock, 'now'>;
}

export class BacktestVenue implements ExecutionVenue {
  readonly name = 'backtest';
  readonly capabilities: VenueCapabilities;
  // Subscribers held directly rather than through a Subject: Subject.next wraps every value in an
  // error-context closure, and a backtest sends several updates per order. An array replaced on
  // every (un)subscription: emitting walks it without a Set iterator, undisturbed by a change.
  private sinks: readonly Subscriber<VenueUpdate>[] = [];
  readonly updates: Observable<VenueUpdate> = new Observable<VenueUpdate>((sub) => {
    this.sinks = [...this.sinks, sub];
    return () => {
      this.sinks = this.sinks.filter((s) => s !== sub);
    };
  });
  private readonly unsubscribe: () => void;
  private readonly clock: Pick<Clock, 'now'>;
  /** The order snapshot of the last fill: the engine's `order` event with it is not sent again. */
  private sentWithFill: SimOrder | undefined;

  constructor(
    readonly engine: MatchingEngine,
    options: BacktestVenueOptions,
  ) {
    this.capabilities = {
      smartOrders: true,
      trailingStop: options.nativeTrailing,
      maxModifications: engine.settings.maxModifications,
      marginEstimate: true,
      synchronous: true,
    };
    this.clock = options.clock;
    this.unsubscribe = engine.subscribe((e) => this.forward(e));
  }

  close(): void {
    this.unsubscribe();
    const sinks = this.sinks;
    this.sinks = [];
    for (const sub of sinks) sub.complete();
  }

  private emit(u: VenueUpdate): void {
    const sinks = this.sinks;
    for (let i = 0; i < sinks.length; i++) sinks[i]!.next(u);
  }

  private forward(e: SimEvent): void {
    switch (e.type) {
      case 'order':
        // The order update that follows every fill has already gone with that fill.
        if (e.order === this.sentWithFill) {
          this.sentWithFill = undefined;
          break;
        }
        this.emit({ kind: 'order', order: toVenueOrderState(e.order) });
        break;
      case 'fill':
        // The engine follows every fill with the order's own update (the same snapshot): it goes
        // with the fill, so the order's new state is merged and published once.
        this.sentWithFill = e.order;
        this.emit({ kind: 'fill', fill: toVenueFill(e.trade), order: toVenueOrderState(e.order) });
        break;
      case 'position':
        // The engine builds positions from fills; a venue position only matters for a contract
        // the exchange settles at expiry (ExecutionEngine: settleExpired). An equity position's
        // update, one per fill, would be translated and dispatched for nothing.
        if (e.position.expiry === undefined) break;
        this.emit({ kind: 'position', position: toVenuePosition(e.position, e.ts) });
        break;
      case 'smart':
        // Each leg's own order events carry everything the engine needs.
        break;
    }
  }

  place(req: VenueOrderRequest): WriteOutcome {
    try {
      // One literal, absent prices undefined (the engine tests for undefined): no spread per order.
      // The ack alone: the order's state reaches the engine through the matching engine's events.
      const r = this.engine.placeOrderAck({
        instrument: req.instrument,
        side: req.side,
        qty: req.qty,
        orderType: req.orderType,
        limitPrice: req.limitPrice,
        triggerPrice: req.triggerPrice,
        validity: req.validity,
        product: req.product,
        isAmo: req.isAmo || !this.engine.isSessionOpen(),
        remarks: req.tag,
      });
      if (r.rejection !== undefined) return { status: 'rejected', reason: r.rejection, errorCode: 'OrderException' };
      return { status: 'accepted', orderId: r.orderId, venueStatus: r.venueStatus };
    } catch (e) {
      return refused(e);
    }
  }

  modify(req: VenueModifyRequest): WriteOutcome {
    return settle(() => this.engine.modifyOrder(req.orderId, modifyChange(req)));
  }

  cancel(req: VenueCancelRequest): WriteOutcome {
    return settle(() => this.engine.cancelOrder(req.orderId));
  }

  placeSmart(req: VenueSmartOrderRequest): WriteOutcome {
    try {
      const r = this.engine.placeSmartOrder(toSmartOrderRequest(req));
      const entry = r.smart.entry;
      if (entry.status === 'REJECTED') return { status: 'rejected', reason: entry.extraInfo || 'smart order refused' };
      const legs = {
        ...(r.smart.stopLoss ? { stopLoss: r.smart.stopLoss.orderId } : {}),
        ...(r.smart.target ? { target: r.smart.target.orderId } : {}),
      };
      return { status: 'accepted', orderId: r.orderId, venueStatus: r.status, legs };
    } catch (e) {
      return refused(e);
    }
  }

  modifySmart(req: VenueSmartModifyRequest): WriteOutcome {
    return settle(() => this.engine.modifySmartOrder(req.orderId, modifyChange(req)));
  }

  cancelSmart(req: VenueSmartCancelRequest): WriteOutcome {
    return settle(() => this.engine.cancelSmartOrder(req.orderId));
  }

  orderBook(): readonly VenueOrderState[] {
    return this.engine.orders().map(toVenueOrderState);
  }

  trades(orderId?: string): readonly VenueFill[] {
    return this.engine.trades(orderId).map(toVenueFill);
  }

  positions(): readonly VenuePosition[] {
    const ts = this.clock.now();
    return this.engine.account.positions().map((p) => toVenuePosition(p, ts));
  }

  funds(): VenueFunds {
    // Read field by field (risk reads funds after every fill): not the account's full funds view.
    const a = this.engine.account;
    return { available: a.available(), used: a.usedMargin(), realizedPnl: a.realizedPnl(), unrealizedPnl: a.unrealizedPnl(), ts: this.clock.now() };
  }

  margin(req: MarginRequest): MarginEstimate {
    const m = this.engine.calculateMargin({ instrument: req.instrument, side: req.side, qty: req.qty, price: req.price, product: req.product });
    return { required: m.totalMargin, available: m.availableBalance, charges: m.charges.totalCharges + m.brokerage };
  }
}
