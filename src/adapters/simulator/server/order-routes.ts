/**
 * Spec 4.6 orders: place, modify, cancel (order writes: static IP, lost-ack fault), the order
 * book, one order (`GET /order` with a JSON body or a query), trades of one order, the trade book.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RateCategory } from '../limits/rate-category.js';
import type { ModifyOrderRequest } from '../matching/types.js';
import { notFound, orderError } from './api-error.js';
import type { SimContext } from './context.js';
import { admitNewOrder } from './retail-algo-gate.js';
import { getParams } from './get-body.js';
import { orderRecordWire, tradeBookWire, tradeWire } from './record-wire.js';
import type { RouteMeta } from './route-meta.js';
import { parseInput } from './validate.js';
import { answerWrite, orderScrip, toPaise, venueCall, wirePrice, wireQty, wireSecurityId } from './wire-input.js';

const placeBody = z
  .object({
    txn_type: z.enum(['BUY', 'SELL']),
    exchange: z.enum(['NSE', 'BSE']),
    segment: z.enum(['EQUITY', 'FNO', 'CURRENCY', 'DERIVATIVE']),
    security_id: wireSecurityId,
    qty: wireQty,
    order_type: z.enum(['LIMIT', 'MARKET', 'STOP_LOSS']),
    limit_price: wirePrice.optional(),
    trigger_price: wirePrice.optional(),
    validity: z.enum(['DAY', 'IOC']),
    product: z.enum(['CNC', 'INTRADAY', 'MARGIN']),
    is_amo: z.boolean({ error: 'expected true or false' }),
    algo_id: z.string({ error: 'expected a string (the generic id of the exchange: 99999 on NSE, 9999999999999999 on BSE)' }).min(1, 'must not be empty'),
    remarks: z.string().optional(),
    is_tsl: z.boolean().optional(),
    tsl_step_size: wirePrice.optional(),
  })
  .strict();

const orderSegment = z.enum(['EQUITY', 'DERIVATIVE', 'FNO', 'CURRENCY']);

const modifyBody = z
  .object({
    order_id: z.string().min(1),
    segment: orderSegment,
    qty: wireQty.optional(),
    limit_price: wirePrice.optional(),
    trigger_price: wirePrice.optional(),
    // Remarks are fixed once placed (wire-gaps): refused by name rather than silently ignored.
    remarks: z.never({ error: 'cannot be changed once the order is placed' }).optional(),
  })
  .strict();

const cancelBody = z.object({ order_id: z.string().min(1), segment: orderSegment }).strict();
const lookup = z.object({ order_id: z.string().min(1), segment: orderSegment.optional() });
const tradeBookQuery = z.object({ segment: orderSegment.optional() });

const write: RouteMeta = { category: RateCategory.ORDERS, write: true };
const read: RouteMeta = { category: RateCategory.NON_TRADING };

function segmentMatches(recordSegment: string, asked: string | undefined): boolean {
  if (asked === undefined) return true;
  const derivative = recordSegment !== 'EQUITY';
  return asked === 'EQUITY' ? !derivative : derivative;
}

export function orderRoutes(app: FastifyInstance, ctx: SimContext): void {
  app.post('/order', { config: write }, async (request, reply) => {
    const b = parseInput(placeBody, request.body, 'request body');
    const instrument = orderScrip(ctx, b.exchange, b.segment, b.security_id);
    admitNewOrder(ctx, b.exchange, b.segment, b.algo_id);
    if (b.order_type === 'LIMIT' && b.limit_price === undefined) throw orderError('limit_price: is required for a LIMIT order');
    if (b.order_type === 'STOP_LOSS' && b.trigger_price === undefined) throw orderError('trigger_price: is required for a STOP_LOSS order');
    const limitPrice = b.order_type === 'MARKET' ? undefined : toPaise(b.limit_price, 'limit_price');
    const triggerPrice = toPaise(b.trigger_price, 'trigger_price');
    const tslStep = toPaise(b.tsl_step_size, 'tsl_step_size');
    const r = venueCall(() =>
      ctx.venue.placeOrder({
        instrument,
        side: b.txn_type,
        qty: b.qty,
        orderType: b.order_type,
        validity: b.validity,
        product: b.product,
        isAmo: b.is_amo,
        algoId: b.algo_id,
        ...(limitPrice !== undefined ? { limitPrice } : {}),
        ...(triggerPrice !== undefined ? { triggerPrice } : {}),
        ...(b.remarks !== undefined ? { remarks: b.remarks } : {}),
        ...(b.is_tsl !== undefined ? { isTsl: b.is_tsl } : {}),
        ...(tslStep !== undefined ? { tslStepSize: tslStep } : {}),
      }),
    );
    if (r.rejection) {
      // Recorded as FAILED in the book (with extra_info), refused on the wire like the live service.
      throw orderError(`${r.rejection.message} (order ${r.orderId})`);
    }
    return answerWrite(ctx, request, reply, { order_id: r.orderId, order_status: r.venueStatus });
  });

  app.post('/order/modify', { config: write }, async (request, reply) => {
    const b = parseInput(modifyBody, request.body, 'request body');
    const req: ModifyOrderRequest = {
      ...(b.qty !== undefined ? { qty: b.qty } : {}),
      ...(b.limit_price !== undefined ? { limitPrice: toPaise(b.limit_price, 'limit_price')! } : {}),
      ...(b.trigger_price !== undefined ? { triggerPrice: toPaise(b.trigger_price, 'trigger_price')! } : {}),
    };
    if (Object.keys(req).length === 0) throw orderError('nothing to modify: send qty, limit_price or trigger_price');
    const existing = ctx.venue.order(b.order_id);
    if (!existing || !segmentMatches(existing.segment, b.segment)) throw notFound(`order_id: no ${b.segment} order ${b.order_id}`);
    const r = venueCall(() => ctx.venue.modifyOrder(b.order_id, req));
    return answerWrite(ctx, request, reply, { order_id: r.orderId, order_status: r.venueStatus });
  });

  app.post('/order/cancel', { config: write }, async (request, reply) => {
    const b = parseInput(cancelBody, request.body, 'request body');
    const existing = ctx.venue.order(b.order_id);
    if (!existing || !segmentMatches(existing.segment, b.segment)) throw notFound(`order_id: no ${b.segment} order ${b.order_id}`);
    const r = venueCall(() => ctx.venue.cancelOrder(b.order_id));
    return answerWrite(ctx, request, reply, { order_id: r.orderId, order_status: r.venueStatus });
  });

  app.get('/order-book', { config: read }, async () => ({
    status: 'success',
    data: ctx.venue.orders().map((o) => orderRecordWire(o, o.smartOrderId !== undefined ? ctx.venue.smartOrder(o.smartOrderId) : undefined, ctx.venue.marketProtectionPct)),
  }));

  app.get('/order', { config: read }, async (request) => {
    const q = parseInput(lookup, await getParams(request), 'request');
    const o = ctx.venue.order(q.order_id);
    if (!o || !segmentMatches(o.segment, q.segment)) throw notFound(`order_id: no order ${q.order_id}${q.segment ? ` in segment ${q.segment}` : ''}`);
    return { status: 'success', data: orderRecordWire(o, o.smartOrderId !== undefined ? ctx.venue.smartOrder(o.smartOrderId) : undefined, ctx.venue.marketProtectionPct) };
  });

  app.get<{ Params: { order_id: string } }>('/trades/:order_id', { config: read }, async (request) => {
    const id = request.params.order_id;
    const params = await getParams(request);
    const seg = parseInput(tradeBookQuery, params, 'query').segment;
    const o = ctx.venue.order(id);
    if (!o || !segmentMatches(o.segment, seg)) throw notFound(`order_id: no order ${id}`);
    return { status: 'success', data: ctx.venue.tradesOf(id).map(tradeWire) };
  });

  app.get('/trade-book', { config: read }, async (request) => {
    const q = parseInput(tradeBookQuery, request.query, 'query');
    const trades = ctx.venue.trades().filter((t) => {
      const o = ctx.venue.order(t.orderId);
      return o ? segmentMatches(o.segment, q.segment) : q.segment === undefined;
    });
    return { status: 'success', data: trades.map(tradeBookWire) };
  });
}
