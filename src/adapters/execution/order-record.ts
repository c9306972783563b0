/**
 * The order state machine's working record of one order (mutable, private to it) and the immutable
 * events built from it: the `OrderSnapshot` of every published state and the `fill` event of every
 * booked fill. Both are built field by field, optional fields set only when present (no
 * conditional spreads): one allocation per published state or fill, on the hot path of every
 * backtest.
 */
import type { OrderStatus, OrderType, Product, Side, Validity } from '../../core/enums.js';
import type { FillEvent, OrderSnapshot } from '../../core/events.js';
import type { SmartLegName } from '../../core/intents.js';
import type { Paise } from '../../core/money.js';
import type { VenueFill } from './venue.js';
import type { Mutable } from './mutable.js';

/** An order as first described: the snapshot's own fields, before any venue answer. */
export interface NewOrder
  extends Pick<OrderSnapshot, 'tag' | 'strategyId' | 'instrument' | 'side' | 'qty' | 'orderType' | 'product' | 'validity' | 'limitPrice' | 'triggerPrice' | 'parentTag' | 'leg' | 'replaces'> {
  /** A slice of the auto-sliced order with this tag (auto-slice.ts). */
  readonly sliceOf?: string;
  /** An auto-sliced order: never sent itself, its state aggregates its `slices` slices. */
  readonly slices?: number;
  /** Modifications already spent (an adopted order). */
  readonly modifications?: number;
}

export interface OrderRecord {
  tag: string;
  strategyId: string;
  orderId: string | undefined;
  instrument: string;
  side: Side;
  qty: number;
  orderType: OrderType;
  product: Product;
  validity: Validity;
  limitPrice: Paise | undefined;
  triggerPrice: Paise | undefined;
  status: OrderStatus;
  venueStatus: string | undefined;
  reportedFilled: number;
  avgPrice: number | undefined;
  fillQty: number;
  fillValue: Paise;
  modifications: number;
  reason: string | undefined;
  parentTag: string | undefined;
  leg: SmartLegName | undefined;
  replaces: string | undefined;
  replacedBy: string | undefined;
  sliceOf: string | undefined;
  slices: number | undefined;
  /** Fill ids booked on this order (forgotten with it when it is evicted). */
  fillIds: string[];
  /** Quantity booked by synthetic fills that no real fill has replaced yet. */
  syntheticQty: number;
  evictable: boolean;
  /** Clock time it became terminal. */
  finishedAt: number;
  /** Venue time of the freshest state whose price/qty fields we took. */
  fieldsTs: number;
  snapshot: OrderSnapshot;
}


/** A record for an order we are about to send (PENDING_NEW); its snapshot is set when first published. */
export function newRecord(o: NewOrder): OrderRecord {
  return {
    tag: o.tag,
    strategyId: o.strategyId,
    orderId: undefined,
    instrument: o.instrument,
    side: o.side,
    qty: o.qty,
    orderType: o.orderType,
    product: o.product,
    validity: o.validity,
    limitPrice: o.limitPrice,
    triggerPrice: o.triggerPrice,
    status: 'PENDING_NEW',
    venueStatus: undefined,
    reportedFilled: 0,
    avgPrice: undefined,
    fillQty: 0,
    fillValue: 0,
    modifications: o.modifications ?? 0,
    reason: undefined,
    parentTag: o.parentTag,
    leg: o.leg,
    replaces: o.replaces,
    replacedBy: undefined,
    sliceOf: o.sliceOf,
    slices: o.slices,
    fillIds: [],
    syntheticQty: 0,
    evictable: false,
    finishedAt: 0,
    fieldsTs: -Infinity,
    snapshot: undefined as unknown as OrderSnapshot,
  };
}

/** The record's current state as an immutable snapshot. */
export function snapshotOf(rec: OrderRecord): OrderSnapshot {
  const snap: Mutable<OrderSnapshot> = {
    tag: rec.tag,
    strategyId: rec.strategyId,
    instrument: rec.instrument,
    side: rec.side,
    qty: rec.qty,
    orderType: rec.orderType,
    product: rec.product,
    validity: rec.validity,
    status: rec.status,
    filledQty: rec.fillQty > rec.reportedFilled ? rec.fillQty : rec.reportedFilled,
    filledValue: rec.fillValue,
    modifications: rec.modifications,
  };
  if (rec.orderId !== undefined) snap.orderId = rec.orderId;
  if (rec.limitPrice !== undefined) snap.limitPrice = rec.limitPrice;
  if (rec.triggerPrice !== undefined) snap.triggerPrice = rec.triggerPrice;
  if (rec.venueStatus !== undefined) snap.venueStatus = rec.venueStatus;
  if (rec.reason !== undefined) snap.reason = rec.reason;
  if (rec.parentTag !== undefined) snap.parentTag = rec.parentTag;
  if (rec.leg !== undefined) snap.leg = rec.leg;
  if (rec.replaces !== undefined) snap.replaces = rec.replaces;
  if (rec.slices !== undefined) snap.slices = rec.slices;
  if (rec.sliceOf !== undefined) snap.sliceOf = rec.sliceOf;
  if (rec.reportedFilled > rec.fillQty) snap.settling = true;
  return snap;
}

/** The `fill` event of a venue fill booked on the record. */
export function fillEventOf(rec: OrderRecord, f: VenueFill): FillEvent {
  const fill: Mutable<FillEvent> = {
    type: 'fill',
    ts: f.ts,
    fillId: f.fillId,
    tag: rec.tag,
    strategyId: rec.strategyId,
    orderId: rec.orderId ?? f.orderId,
    instrument: rec.instrument,
    side: rec.side,
    qty: f.qty,
    price: f.price,
    product: rec.product,
  };
  if (f.charges !== undefined) fill.charges = f.charges;
  return fill;
}

/** Whether the record changed anything a snapshot shows since `s` was taken. */
export function differs(rec: OrderRecord, s: OrderSnapshot): boolean {
  return (
    rec.status !== s.status ||
    rec.orderId !== s.orderId ||
    rec.qty !== s.qty ||
    rec.limitPrice !== s.limitPrice ||
    rec.triggerPrice !== s.triggerPrice ||
    Math.max(rec.fillQty, rec.reportedFilled) !== s.filledQty ||
    rec.modifications !== s.modifications ||
    rec.venueStatus !== s.venueStatus ||
    rec.reason !== s.reason ||
    (rec.reportedFilled > rec.fillQty) !== (s.settling === true)
  );
}
