/**
 * Orders (spec 2.7, 2.8, 4.6; wire-gaps "Orders"): the placement body built from tarang's own
 * order description, the answers of place/modify/cancel, order-book records and trades. Prices go
 * out as rupee numbers and come back as paise; `""` fields that do not apply decode to undefined.
 */
import { z } from 'zod';
import type { OrderStatus, OrderType, Product, Side, Validity } from '../../../core/enums.js';
import { toRupees, type Paise } from '../../../core/money.js';
import { algoIdFor } from '../../../risk/rules/retail-algo.js';
import { normaliseStatus } from '../order-status.js';
import { bool, idStr, int, optAvgPaise, optInt, optPaise, optStr } from './common.js';

/** Remarks the broker refuses (wire-gaps). */
export const RESERVED_REMARKS: ReadonlySet<string> = new Set(['TV-TERMINAL']);
export const MAX_REMARKS = 100;

/** What tarang asks for; the wire body is derived from it by `placeOrderBody`. */
export interface PlaceOrderRequest {
  readonly side: Side;
  readonly exchange: 'NSE' | 'BSE';
  readonly segment: 'EQUITY' | 'FNO' | 'CURRENCY';
  readonly securityId: string;
  readonly qty: number;
  readonly orderType: OrderType;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  readonly validity: Validity;
  readonly product: Product;
  readonly isAmo?: boolean;
  /** Our client tag. Required here (not on the wire): reconciliation of a lost answer needs it. */
  readonly remarks: string;
  readonly algoId?: string;
}

export const PlaceOrderRequestSchema = z
  .object({
    side: z.enum(['BUY', 'SELL']),
    exchange: z.enum(['NSE', 'BSE']),
    segment: z.enum(['EQUITY', 'FNO', 'CURRENCY']),
    securityId: z.string().regex(/^\d+$/, 'expected the numeric SECURITY_ID of the instrument master'),
    qty: z.number().int().positive(),
    orderType: z.enum(['MARKET', 'LIMIT', 'STOP_LOSS']),
    limitPrice: z.number().int().positive().optional(),
    triggerPrice: z.number().int().positive().optional(),
    validity: z.enum(['DAY', 'IOC']),
    product: z.enum(['CNC', 'INTRADAY', 'MARGIN']),
    isAmo: z.boolean().optional(),
    remarks: z
      .string()
      .min(1, 'remarks carries the client tag and must not be empty')
      .max(MAX_REMARKS, `remarks is at most ${MAX_REMARKS} characters (the broker truncates, which would break reconciliation)`)
      .refine((r) => !RESERVED_REMARKS.has(r), { message: 'this remarks value is reserved by the broker' }),
    algoId: z.string().optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.orderType === 'LIMIT' && o.limitPrice === undefined) ctx.addIssue({ code: 'custom', path: ['limitPrice'], message: 'a LIMIT order needs limitPrice' });
    if (o.orderType === 'STOP_LOSS' && o.triggerPrice === undefined) ctx.addIssue({ code: 'custom', path: ['triggerPrice'], message: 'a STOP_LOSS order needs triggerPrice' });
    if (o.orderType === 'MARKET' && o.limitPrice !== undefined) ctx.addIssue({ code: 'custom', path: ['limitPrice'], message: 'a MARKET order takes no limitPrice' });
  });

/** What a regular and a smart placement both say: the instrument, side, size, type and terms. */
export type PlacementHead = Pick<PlaceOrderRequest, 'side' | 'exchange' | 'segment' | 'securityId' | 'qty' | 'validity' | 'product'> & { readonly orderType: string };

/** The wire fields a placement body (spec 4.6 order, 4.7 smart order) starts with, in wire order. */
export function placementHeadBody(o: PlacementHead): Record<string, unknown> {
  return {
    txn_type: o.side,
    exchange: o.exchange,
    segment: o.segment,
    security_id: o.securityId,
    qty: o.qty,
    order_type: o.orderType,
    validity: o.validity,
    product: o.product,
  };
}

export function placeOrderBody(o: PlaceOrderRequest): Record<string, unknown> {
  const body = placementHeadBody(o);
  body['is_amo'] = o.isAmo ?? false;
  // Every order carries an algo id of its exchange (retail-algo framework); the client passes a registered one.
  body['algo_id'] = o.algoId ?? algoIdFor(o.exchange);
  body['remarks'] = o.remarks;
  if (o.limitPrice !== undefined) body['limit_price'] = toRupees(o.limitPrice);
  if (o.triggerPrice !== undefined) body['trigger_price'] = toRupees(o.triggerPrice);
  return body;
}

/** Segment as modify/cancel/lookup take it (wire-gaps): EQUITY or DERIVATIVE. */
export type OrderSegment = 'EQUITY' | 'DERIVATIVE';

export interface ModifyOrderRequest {
  readonly orderId: string;
  readonly segment: OrderSegment;
  /** wire-gaps sends qty and limit_price on every modify; give both when known. */
  readonly qty?: number;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
}

export function modifyOrderBody(m: ModifyOrderRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { order_id: m.orderId, segment: m.segment };
  if (m.qty !== undefined) body['qty'] = m.qty;
  if (m.limitPrice !== undefined) body['limit_price'] = toRupees(m.limitPrice);
  if (m.triggerPrice !== undefined) body['trigger_price'] = toRupees(m.triggerPrice);
  return body;
}

export const OrderAckSchema = z
  .object({ order_id: idStr, order_status: z.string().default('') })
  .transform((a) => ({ orderId: a.order_id, venueStatus: a.order_status }));
export type OrderAck = z.output<typeof OrderAckSchema>;

export interface OrderRecord {
  readonly orderId: string;
  readonly exchOrderId?: string;
  readonly createdAt?: number;
  readonly updatedAt?: number;
  readonly securityId?: string;
  readonly name?: string;
  readonly side?: Side;
  readonly exchange?: string;
  readonly segment?: string;
  readonly product?: string;
  readonly orderType?: string;
  readonly validity?: string;
  readonly qty: number;
  readonly price?: Paise;
  readonly filledQty: number;
  /** Average fill price, paise, possibly fractional. */
  readonly avgPrice?: number;
  readonly slTriggerPrice?: Paise;
  readonly slLimitPrice?: Paise;
  readonly tgtTriggerPrice?: Paise;
  readonly tgtLimitPrice?: Paise;
  readonly venueStatus: string;
  /** Normalised; undefined when the broker's spelling is unknown (the caller decides). */
  readonly status?: OrderStatus;
  readonly reason?: string;
  readonly remarks?: string;
  readonly isTsl: boolean;
  readonly tslStepSize?: Paise;
  /** For smart-order legs: the smart order's id and which leg (stop_loss, target, entry). */
  readonly smartOrderId?: string;
  readonly leg?: string;
  readonly modifications?: number;
}

/** A timestamp sent as epoch ms/s (number or string) or an ISO/`YYYY-MM-DD HH:MM:SS` IST text. */
export const optTimestamp = z.unknown().optional().transform((v): number | undefined => {
  if (v === null || v === undefined || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  if (n !== undefined) return n > 1e11 ? Math.round(n) : Math.round(n * 1000);
  if (typeof v !== 'string') return undefined;
  const iso = /[zZ]|[+-]\d{2}:?\d{2}$/.test(v) ? v : `${v.replace(' ', 'T')}+05:30`;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
});

export const OrderRecordSchema = z
  .object({
    id: idStr.optional(),
    order_id: idStr.optional(),
    exch_order_id: optStr,
    created_at: optTimestamp,
    updated_at: optTimestamp,
    security_id: optStr,
    name: optStr,
    txn_type: z.enum(['BUY', 'SELL', 'B', 'S']).optional().catch(undefined),
    exchange: optStr,
    segment: optStr,
    product: optStr,
    order_type: optStr,
    validity: optStr,
    requested_qty: int,
    requested_price: optPaise,
    traded_qty: optInt,
    traded_price: optAvgPaise,
    sl_trigger_price: optPaise,
    sl_limit_price: optPaise,
    tgt_trigger_price: optPaise,
    tgt_limit_price: optPaise,
    status: z.string(),
    extra_info: optStr,
    remarks: optStr,
    is_tsl: bool,
    tsl_step_size: optPaise,
    smart_order_id: optStr,
    leg: optStr,
    modifications: optInt,
  })
  .refine((r) => (r.id ?? r.order_id) !== undefined, { message: 'order record without id', path: ['id'] })
  .transform((r): OrderRecord => {
    const filledQty = r.traded_qty ?? 0;
    const side: Side | undefined = r.txn_type === 'B' ? 'BUY' : r.txn_type === 'S' ? 'SELL' : r.txn_type;
    return {
      orderId: (r.id ?? r.order_id) as string,
      exchOrderId: r.exch_order_id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      securityId: r.security_id,
      name: r.name,
      side,
      exchange: r.exchange,
      segment: r.segment,
      product: r.product,
      orderType: r.order_type,
      validity: r.validity,
      qty: r.requested_qty,
      price: r.requested_price,
      filledQty,
      avgPrice: filledQty > 0 ? r.traded_price : undefined,
      slTriggerPrice: r.sl_trigger_price,
      slLimitPrice: r.sl_limit_price,
      tgtTriggerPrice: r.tgt_trigger_price,
      tgtLimitPrice: r.tgt_limit_price,
      venueStatus: r.status,
      status: normaliseStatus(r.status, filledQty),
      reason: r.extra_info,
      remarks: r.remarks,
      isTsl: r.is_tsl,
      tslStepSize: r.tsl_step_size,
      smartOrderId: r.smart_order_id,
      leg: r.leg,
      modifications: r.modifications,
    };
  });

export const OrderBookSchema = z.array(OrderRecordSchema);
/** `GET /order` answers one record, or a one-element list. */
export const OrderLookupSchema = z.union([OrderRecordSchema, z.array(OrderRecordSchema)]).transform((r) => (Array.isArray(r) ? r : [r]));

export const TradeSchema = z
  .object({
    fill_id: idStr,
    exch_order_id: optStr,
    order_id: optStr,
    quantity: int,
    price: optAvgPaise,
    trade_date: optTimestamp,
    trade_serial_no: optStr,
    scrip_code: optStr,
    remarks: optStr,
    txn_type: optStr,
    security_id: optStr,
    product: optStr,
  })
  .transform((t) => ({
    fillId: t.fill_id,
    orderId: t.order_id,
    exchOrderId: t.exch_order_id,
    qty: t.quantity,
    price: t.price,
    ts: t.trade_date,
    serialNo: t.trade_serial_no,
    scripCode: t.scrip_code,
    remarks: t.remarks,
    side: t.txn_type,
    securityId: t.security_id,
    product: t.product,
  }));
export type Trade = z.output<typeof TradeSchema>;
export const TradesSchema = z.union([z.array(TradeSchema), z.object({ trades: z.array(TradeSchema) }).transform((t) => t.trades)]);
