/**
 * Spec 4.7 smart (GTT) orders: place with stop-loss / target legs, modify and cancel any part by
 * its own id (the parent id or a `GTT-` leg id). Leg bounds (spec 3.5) are the engine's rule; its
 * message names the bound. Order writes: static IP, lost-ack fault.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RateCategory } from '../limits/rate-category.js';
import type { ModifySmartOrderRequest, SmartLegPrices } from '../matching/types.js';
import { inputError, orderError } from './api-error.js';
import type { SimContext } from './context.js';
import { admitNewOrder } from './retail-algo-gate.js';
import { smartPlacementWire, smartRecordWire } from './record-wire.js';
import type { RouteMeta } from './route-meta.js';
import { parseInput } from './validate.js';
import { answerWrite, orderScrip, toPaise, venueCall, wirePrice, wireQty, wireSecurityId } from './wire-input.js';

const smartBody = z
  .object({
    txn_type: z.enum(['BUY', 'SELL']),
    exchange: z.enum(['NSE', 'BSE']),
    segment: z.enum(['EQUITY', 'FNO', 'CURRENCY', 'DERIVATIVE']),
    product: z.enum(['CNC', 'INTRADAY', 'MARGIN']),
    order_type: z.enum(['LIMIT', 'MARKET', 'TRIGGER']),
    validity: z.enum(['DAY', 'IOC']),
    security_id: wireSecurityId,
    qty: wireQty,
    algo_id: z.string({ error: 'expected a string (the generic id of the exchange: 99999 on NSE, 9999999999999999 on BSE)' }).min(1, 'must not be empty'),
    limit_price: wirePrice.optional(),
    trigger_price: wirePrice.optional(),
    trigger_limit_price: wirePrice.optional(),
    sl_trigger_price: wirePrice.optional(),
    sl_limit_price: wirePrice.optional(),
    tgt_trigger_price: wirePrice.optional(),
    tgt_limit_price: wirePrice.optional(),
    is_tsl: z.boolean().optional(),
    tsl_step_size: wirePrice.optional(),
    remarks: z.string().optional(),
    is_amo: z.boolean().optional(),
  })
  .strict();

const segment = z.enum(['EQUITY', 'DERIVATIVE', 'FNO', 'CURRENCY']);
const smartModifyBody = z
  .object({
    order_id: z.string().min(1),
    segment,
    algo_id: z.string().min(1).optional(),
    order_type: z.enum(['LIMIT', 'MARKET', 'TRIGGER']).optional(),
    qty: wireQty.optional(),
    limit_price: wirePrice.optional(),
    trigger_price: wirePrice.optional(),
  })
  .strict();
const smartCancelBody = z.object({ order_id: z.string().min(1), segment }).strict();

const write: RouteMeta = { category: RateCategory.ORDERS, write: true };

function leg(trigger: number | string | undefined, limit: number | string | undefined, name: 'sl' | 'tgt'): SmartLegPrices | undefined {
  const t = toPaise(trigger, `${name}_trigger_price`);
  const l = toPaise(limit, `${name}_limit_price`);
  if (t === undefined) {
    if (l !== undefined) throw inputError(`${name}_trigger_price: is required when ${name}_limit_price is given`);
    return undefined;
  }
  return l === undefined ? { triggerPrice: t } : { triggerPrice: t, limitPrice: l };
}

export function smartRoutes(app: FastifyInstance, ctx: SimContext): void {
  app.post('/smart/order', { config: write }, async (request, reply) => {
    const b = parseInput(smartBody, request.body, 'request body');
    const instrument = orderScrip(ctx, b.exchange, b.segment, b.security_id);
    admitNewOrder(ctx, b.exchange, b.segment, b.algo_id);
    if (b.order_type === 'LIMIT' && b.limit_price === undefined) throw orderError('limit_price: is required for a LIMIT smart order');
    if (b.order_type === 'TRIGGER' && b.trigger_price === undefined) throw orderError('trigger_price: is required for a TRIGGER smart order');
    const stopLoss = leg(b.sl_trigger_price, b.sl_limit_price, 'sl');
    const target = leg(b.tgt_trigger_price, b.tgt_limit_price, 'tgt');
    // Spec 3.5: on a TRIGGER parent `limit_price` is not used.
    const limitPrice = b.order_type === 'LIMIT' ? toPaise(b.limit_price, 'limit_price') : undefined;
    const triggerPrice = b.order_type === 'TRIGGER' ? toPaise(b.trigger_price, 'trigger_price') : undefined;
    const triggerLimitPrice = b.order_type === 'TRIGGER' ? toPaise(b.trigger_limit_price, 'trigger_limit_price') : undefined;
    const tslStep = toPaise(b.tsl_step_size, 'tsl_step_size');
    const r = venueCall(() =>
      ctx.venue.placeSmartOrder({
        instrument,
        side: b.txn_type,
        qty: b.qty,
        entryType: b.order_type,
        validity: b.validity,
        product: b.product,
        algoId: b.algo_id,
        ...(limitPrice !== undefined ? { limitPrice } : {}),
        ...(triggerPrice !== undefined ? { triggerPrice } : {}),
        ...(triggerLimitPrice !== undefined ? { triggerLimitPrice } : {}),
        ...(stopLoss ? { stopLoss } : {}),
        ...(target ? { target } : {}),
        ...(b.is_tsl !== undefined ? { isTsl: b.is_tsl } : {}),
        ...(tslStep !== undefined ? { tslStepSize: tslStep } : {}),
        ...(b.remarks !== undefined ? { remarks: b.remarks } : {}),
      }),
    );
    return answerWrite(ctx, request, reply, smartPlacementWire(r.smart));
  });

  app.post('/smart/order/modify', { config: write }, async (request, reply) => {
    const b = parseInput(smartModifyBody, request.body, 'request body');
    const req: ModifySmartOrderRequest = {
      ...(b.qty !== undefined ? { qty: b.qty } : {}),
      ...(b.limit_price !== undefined ? { limitPrice: toPaise(b.limit_price, 'limit_price')! } : {}),
      ...(b.trigger_price !== undefined ? { triggerPrice: toPaise(b.trigger_price, 'trigger_price')! } : {}),
    };
    if (Object.keys(req).length === 0) throw orderError('nothing to modify: send qty, limit_price or trigger_price');
    const s = venueCall(() => ctx.venue.modifySmartOrder(b.order_id, req));
    return answerWrite(ctx, request, reply, { order_id: b.order_id, order_status: 'MODIFIED', smart_order: smartRecordWire(s) });
  });

  app.post('/smart/order/cancel', { config: write }, async (request, reply) => {
    const b = parseInput(smartCancelBody, request.body, 'request body');
    const s = venueCall(() => ctx.venue.cancelSmartOrder(b.order_id));
    return answerWrite(ctx, request, reply, { order_id: b.order_id, order_status: 'CANCELLED', smart_order: smartRecordWire(s) });
  });

  app.get('/smart/order-book', { config: { category: RateCategory.NON_TRADING } }, async () => ({
    status: 'success',
    data: ctx.venue.smartOrders().map(smartRecordWire),
  }));
}
