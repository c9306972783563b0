/**
 * The engine's mutable order state and the read-only records made from it. Only the matching
 * engine mutates these; everyone else sees `SimOrder` / `SmartOrderRecord` snapshots.
 */
import { OrderStatus, type OrderType, type Product, type Side, type Validity } from '../../../core/enums.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { Depth, SimOrder, SmartLeg, SmartOrderRecord } from './types.js';
import { VenueStatus, type SmartStatus } from './venue-status.js';

/** Where an order is in its life (the engine's own state; status strings derive from it). */
export const Phase = {
  /** AMO waiting for the session to open. */
  QUEUED: 0,
  /** Smart-order leg waiting for its entry to fill. */
  DORMANT: 1,
  /** Waiting for its trigger. */
  TRIGGER: 2,
  /** Working at its limit. */
  WORKING: 3,
  FILLED: 4,
  CANCELLED: 5,
  EXPIRED: 6,
  FAILED: 7,
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

export interface OrderState {
  readonly seq: number;
  readonly orderId: string;
  exchOrderId: string;
  readonly instrument: Instrument;
  readonly side: Side;
  readonly product: Product;
  readonly requestedOrderType: OrderType;
  readonly validity: Validity;
  readonly isAmo: boolean;
  qty: number;
  limitPrice: Paise | undefined;
  triggerPrice: Paise | undefined;
  /** +1: fires when price >= trigger; -1: when price <= trigger. */
  triggerDir: 1 | -1;
  /** Executes at market (MARKET, or a stop without a limit): slippage applies. */
  readonly marketLike: boolean;
  filledQty: number;
  filledValue: Paise;
  phase: Phase;
  extraInfo: string;
  readonly remarks: string;
  readonly algoId: string;
  readonly isTsl: boolean;
  readonly tslStepSize: Paise | undefined;
  modifications: number;
  readonly createdAt: number;
  updatedAt: number;
  /** Not yet matched against any update (deferred arrival, just triggered, AMO just released). */
  fresh: boolean;
  /**
   * A smart leg armed during the market update being played: the point it armed at. It is checked
   * against the rest of that update's path from there (`MatchingEngine.onMarket`), then cleared.
   */
  armedAt: Paise | undefined;
  smart: SmartState | undefined;
  readonly leg: SmartLeg | undefined;
}

export interface SmartState {
  readonly orderId: string;
  readonly entry: OrderState;
  readonly stopLoss: OrderState | undefined;
  readonly target: OrderState | undefined;
  status: SmartStatus;
  readonly entryType: SmartOrderRecord['entryType'];
  readonly trailing: boolean;
  readonly isTsl: boolean;
  readonly tslStepSize: Paise | undefined;
  /** Trailing reference: best price seen since the legs armed. */
  trailRef: Paise | undefined;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly remarks: string;
}

export interface Book {
  readonly instrument: Instrument;
  ts: number;
  ltp: Paise | undefined;
  bid: Paise | undefined;
  ask: Paise | undefined;
  bidQty: number | undefined;
  askQty: number | undefined;
  depth: Depth | undefined;
  upper: Paise | undefined;
  lower: Paise | undefined;
  /** Working orders (trigger-pending and resting), in arrival order. */
  working: OrderState[];
  /** Quantity taken from each level since the last update (keyed by side and price). */
  takenAsk: Map<Paise, number>;
  takenBid: Map<Paise, number>;
}

export interface Fill {
  readonly price: Paise;
  readonly qty: number;
}

export const TERMINAL: ReadonlySet<Phase> = new Set([Phase.FILLED, Phase.CANCELLED, Phase.EXPIRED, Phase.FAILED]);

export function venueStatusOf(o: OrderState): VenueStatus {
  const part = o.filledQty > 0;
  switch (o.phase) {
    case Phase.QUEUED:
      return VenueStatus.O_PENDING;
    case Phase.DORMANT:
      return VenueStatus.PENDING;
    case Phase.TRIGGER:
      return VenueStatus.SL_PENDING;
    case Phase.WORKING:
      return part ? VenueStatus.PARTIALLY_FILLED : VenueStatus.O_PENDING;
    case Phase.FILLED:
      return VenueStatus.SUCCESS;
    case Phase.CANCELLED:
      return part ? VenueStatus.PARTIALLY_FILLED_CANCELLED : VenueStatus.CANCELLED;
    case Phase.EXPIRED:
      return part ? VenueStatus.PARTIALLY_FILLED_EXPIRED : VenueStatus.EXPIRED;
    case Phase.FAILED:
      return VenueStatus.FAILED;
  }
}

export function statusOf(o: OrderState): OrderStatus {
  switch (o.phase) {
    case Phase.QUEUED:
      return OrderStatus.OPEN;
    case Phase.DORMANT:
    case Phase.TRIGGER:
      return OrderStatus.TRIGGER_PENDING;
    case Phase.WORKING:
      return o.filledQty > 0 ? OrderStatus.PARTIALLY_FILLED : OrderStatus.OPEN;
    case Phase.FILLED:
      return OrderStatus.FILLED;
    case Phase.CANCELLED:
      return OrderStatus.CANCELLED;
    case Phase.EXPIRED:
      return OrderStatus.EXPIRED;
    case Phase.FAILED:
      return OrderStatus.REJECTED;
  }
}

export function snapshot(o: OrderState): SimOrder {
  // One literal with every field (absent optional ones are undefined, which JSON and the wire
  // formatters omit): a single allocation with all fields in-object. Conditional spreads, or
  // adding fields after creation, cost several allocations, and a backtest takes three
  // snapshots of every order it places.
  const i = o.instrument;
  return {
    orderId: o.orderId,
    exchOrderId: o.exchOrderId,
    instrument: i.id,
    securityId: i.securityId,
    tradingSymbol: i.tradingSymbol,
    exchange: i.exchange,
    segment: i.segment,
    side: o.side,
    product: o.product,
    orderType: o.requestedOrderType === 'MARKET' ? 'LIMIT' : o.requestedOrderType,
    requestedOrderType: o.requestedOrderType,
    validity: o.validity,
    isAmo: o.isAmo,
    qty: o.qty,
    limitPrice: o.limitPrice,
    triggerPrice: o.triggerPrice,
    filledQty: o.filledQty,
    filledValue: o.filledValue,
    avgPrice: o.filledQty === 0 ? 0 : o.filledValue / o.filledQty,
    status: statusOf(o),
    venueStatus: venueStatusOf(o),
    extraInfo: o.extraInfo,
    remarks: o.remarks,
    algoId: o.algoId,
    isTsl: o.isTsl,
    tslStepSize: o.tslStepSize,
    modifications: o.modifications,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    smartOrderId: o.smart?.orderId,
    leg: o.leg,
  };
}

export function smartSnapshot(s: SmartState): SmartOrderRecord {
  return {
    orderId: s.orderId,
    instrument: s.entry.instrument.id,
    side: s.entry.side,
    qty: s.entry.qty,
    entryType: s.entryType,
    status: s.status,
    entry: snapshot(s.entry),
    ...(s.stopLoss ? { stopLoss: snapshot(s.stopLoss) } : {}),
    ...(s.target ? { target: snapshot(s.target) } : {}),
    isTsl: s.isTsl,
    ...(s.tslStepSize !== undefined ? { tslStepSize: s.tslStepSize } : {}),
    trailing: s.trailing,
    remarks: s.remarks,
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
  };
}
