/**
 * Broker records -> the engine's venue shapes (src/adapters/execution/venue.ts): order-book
 * records, stream order updates (bare numeric ids, one-letter statuses, partial fields), trades
 * and positions. Scrip codes are rebuilt from exchange + segment + security id.
 */
import { z } from 'zod';
import type { OrderType, Product, Side, Validity } from '../../core/enums.js';
import { scripCode } from '../../core/instruments.js';
import type { SmartLegName } from '../../core/intents.js';
import type { VenueFill, VenueOrderState, VenuePosition } from '../execution/venue.js';
import { DataException } from './errors.js';
import { normaliseStatus } from './order-status.js';
import { decode, idStr, optAvgPaise, optInt, optPaise, optStr } from './schemas/common.js';
import { optTimestamp, type OrderRecord, type Trade } from './schemas/orders.js';
import type { Position } from './schemas/portfolio.js';

/** NSE/BSE + EQUITY/DERIVATIVE/FNO/INDEX (+ one-letter forms) + id -> `NSE_2885`, `NFO_43219`. */
export function scripFor(exchange: string | undefined, segment: string | undefined, securityId: string | undefined): string | undefined {
  if (!securityId) return undefined;
  const ex = exchange === 'BSE' || exchange === 'BFO' ? 'BSE' : exchange === 'NSE' || exchange === 'NFO' || exchange === undefined ? 'NSE' : undefined;
  if (!ex) return undefined;
  const seg = (segment ?? 'EQUITY').toUpperCase();
  const s = seg === 'EQUITY' || seg === 'E' ? 'EQUITY' : seg === 'INDEX' ? 'INDEX' : 'FNO';
  return scripCode(ex, s, securityId);
}

const ORDER_TYPES: ReadonlySet<string> = new Set(['MARKET', 'LIMIT', 'STOP_LOSS']);
const PRODUCTS: ReadonlySet<string> = new Set(['CNC', 'INTRADAY', 'MARGIN']);
const VALIDITIES: ReadonlySet<string> = new Set(['DAY', 'IOC']);

function pick<T extends string>(set: ReadonlySet<string>, v: string | undefined): T | undefined {
  const u = v?.toUpperCase();
  return u !== undefined && set.has(u) ? (u as T) : undefined;
}

export function legName(leg: string | undefined): SmartLegName | undefined {
  if (leg === 'stop_loss' || leg === 'stopLoss' || leg === 'sl') return 'stopLoss';
  if (leg === 'target' || leg === 'tgt') return 'target';
  if (leg === 'entry') return 'entry';
  return undefined;
}

/**
 * An order's trigger as the book shows it: a plain order's stop-loss trigger; a smart order's
 * stop-loss or target leg's own trigger (every part of a smart order carries both legs' triggers,
 * so the entry shows none of its own).
 */
function triggerOf(r: OrderRecord, leg: ReturnType<typeof legName>): number | undefined {
  if (r.smartOrderId === undefined) return r.slTriggerPrice;
  return leg === 'stopLoss' ? r.slTriggerPrice : leg === 'target' ? r.tgtTriggerPrice : undefined;
}

export function orderStateFromRecord(r: OrderRecord, fallbackTs: number, endpoint = 'GET /order-book'): VenueOrderState {
  if (r.status === undefined) {
    throw new DataException(`${endpoint}: order ${r.orderId} has a status the codec does not know: ${JSON.stringify(r.venueStatus)}`, { endpoint, field: 'status', value: r.venueStatus });
  }
  const leg = legName(r.leg);
  return {
    orderId: r.orderId,
    ...(r.remarks !== undefined ? { tag: r.remarks } : {}),
    ...(scripFor(r.exchange, r.segment, r.securityId) ? { instrument: scripFor(r.exchange, r.segment, r.securityId)! } : {}),
    ...(r.side ? { side: r.side } : {}),
    qty: r.qty,
    ...(pick<OrderType>(ORDER_TYPES, r.orderType) ? { orderType: pick<OrderType>(ORDER_TYPES, r.orderType)! } : {}),
    ...(pick<Product>(PRODUCTS, r.product) ? { product: pick<Product>(PRODUCTS, r.product)! } : {}),
    ...(pick<Validity>(VALIDITIES, r.validity) ? { validity: pick<Validity>(VALIDITIES, r.validity)! } : {}),
    ...(r.price !== undefined ? { limitPrice: r.price } : {}),
    ...(triggerOf(r, leg) !== undefined ? { triggerPrice: triggerOf(r, leg)! } : {}),
    status: r.status,
    venueStatus: r.venueStatus,
    filledQty: r.filledQty,
    ...(r.avgPrice !== undefined ? { avgPrice: r.avgPrice } : {}),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    ...(r.smartOrderId !== undefined ? { parentOrderId: r.smartOrderId } : {}),
    ...(leg ? { leg } : {}),
    ...(r.modifications !== undefined ? { modifications: r.modifications } : {}),
    ts: r.updatedAt ?? r.createdAt ?? fallbackTs,
  };
}

const OrderUpdateSchema = z.object({
  order_id: idStr,
  order_status: z.string(),
  filled_quantity: optInt,
  traded_qty: optInt,
  remaining_quantity: optInt,
  quantity: optInt,
  average_price: optAvgPaise,
  limit_price: optPaise,
  trigger_price: optPaise,
  security_id: optStr,
  exchange: optStr,
  segment: optStr,
  txn_type: optStr,
  product: optStr,
  order_type: optStr,
  extra_info: optStr,
  remarks: optStr,
  updated_at: optTimestamp,
  smart_order_id: optStr,
  leg: optStr,
});

/**
 * A stream order update. `resolveId` maps a bare numeric id (observed on the live stream) to the
 * full id the order was placed under, when known.
 */
export function orderStateFromUpdate(data: Record<string, unknown>, ts: number, resolveId: (raw: string) => string = (x) => x): VenueOrderState {
  const u = decode(OrderUpdateSchema, data, 'ws:order_update', undefined, 'data');
  const filled = u.filled_quantity ?? u.traded_qty;
  const status = normaliseStatus(u.order_status, filled ?? 0);
  if (status === undefined) {
    throw new DataException(`ws:order_update: order ${u.order_id} has a status the codec does not know: ${JSON.stringify(u.order_status)}`, { endpoint: 'ws:order_update', field: 'data.order_status' });
  }
  const qty = u.quantity ?? (filled !== undefined && u.remaining_quantity !== undefined ? filled + u.remaining_quantity : undefined);
  const instrument = scripFor(u.exchange, u.segment, u.security_id);
  const side = u.txn_type === 'BUY' || u.txn_type === 'B' ? 'BUY' : u.txn_type === 'SELL' || u.txn_type === 'S' ? 'SELL' : undefined;
  const leg = legName(u.leg);
  return {
    orderId: resolveId(u.order_id),
    ...(u.remarks !== undefined ? { tag: u.remarks } : {}),
    ...(instrument ? { instrument } : {}),
    ...(side ? { side: side as Side } : {}),
    ...(qty !== undefined ? { qty } : {}),
    ...(pick<OrderType>(ORDER_TYPES, u.order_type) ? { orderType: pick<OrderType>(ORDER_TYPES, u.order_type)! } : {}),
    ...(pick<Product>(PRODUCTS, u.product) ? { product: pick<Product>(PRODUCTS, u.product)! } : {}),
    ...(u.limit_price !== undefined ? { limitPrice: u.limit_price } : {}),
    ...(u.trigger_price !== undefined ? { triggerPrice: u.trigger_price } : {}),
    status,
    venueStatus: u.order_status,
    ...(filled !== undefined ? { filledQty: filled } : {}),
    ...(u.average_price !== undefined && (filled ?? 0) > 0 ? { avgPrice: u.average_price } : {}),
    ...(u.extra_info !== undefined ? { reason: u.extra_info } : {}),
    ...(u.smart_order_id !== undefined ? { parentOrderId: u.smart_order_id } : {}),
    ...(leg ? { leg } : {}),
    ts: u.updated_at ?? ts,
  };
}

export function fillFromTrade(t: Trade, order: { orderId: string; instrument?: string; side?: Side; tag?: string; product?: Product } | undefined, fallbackTs: number): VenueFill | undefined {
  const orderId = t.orderId ?? order?.orderId;
  const instrument = t.scripCode ?? order?.instrument ?? (t.securityId ? scripFor('NSE', 'EQUITY', t.securityId) : undefined);
  const sideRaw = t.side ?? order?.side;
  const side: Side | undefined = sideRaw === 'BUY' || sideRaw === 'B' ? 'BUY' : sideRaw === 'SELL' || sideRaw === 'S' ? 'SELL' : undefined;
  if (!orderId || !instrument || !side || t.price === undefined) return undefined;
  const product = pick<Product>(PRODUCTS, t.product) ?? order?.product;
  const tag = t.remarks ?? order?.tag;
  return {
    fillId: t.fillId,
    orderId,
    ...(tag !== undefined ? { tag } : {}),
    instrument,
    side,
    qty: t.qty,
    price: Math.round(t.price),
    ...(product ? { product } : {}),
    ts: t.ts ?? fallbackTs,
  };
}

export function positionFromWire(p: Position, ts: number): VenuePosition | undefined {
  const instrument = scripFor(p.exchange, p.segment, p.securityId);
  const product = pick<Product>(PRODUCTS, p.product);
  if (!instrument || !product) return undefined;
  return {
    instrument,
    product,
    netQty: p.netQty,
    avgPrice: Math.round((p.avgPrice ?? 0) * 100 * 10_000) / 10_000,
    realizedPnl: Math.round(p.realizedProfit * 100),
    ...(p.expiry !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(p.expiry) ? { expiry: p.expiry } : {}),
    ts,
  };
}
