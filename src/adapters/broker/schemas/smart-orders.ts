/**
 * Smart (GTT) orders (spec 3.4, 3.5, 4.7; wire-gaps "Smart orders"): parent entry with optional
 * stop-loss and target legs, each addressed by its own id for modify and cancel.
 */
import { z } from 'zod';
import type { Product, Side, Validity } from '../../../core/enums.js';
import { toRupees, type Paise } from '../../../core/money.js';
import { idStr } from './common.js';
import { algoIdFor } from '../../../risk/rules/retail-algo.js';
import { placementHeadBody } from './orders.js';

/** The prices of a smart order's entry and legs, as placed and as modified (PRICE_FIELDS names them on the wire). */
export interface SmartOrderPrices {
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  readonly triggerLimitPrice?: Paise;
  readonly slTriggerPrice?: Paise;
  readonly slLimitPrice?: Paise;
  readonly tgtTriggerPrice?: Paise;
  readonly tgtLimitPrice?: Paise;
}

export interface SmartOrderRequest extends SmartOrderPrices {
  readonly side: Side;
  readonly exchange: 'NSE' | 'BSE';
  readonly segment: 'EQUITY' | 'FNO' | 'CURRENCY';
  readonly securityId: string;
  readonly qty: number;
  readonly orderType: 'LIMIT' | 'MARKET' | 'TRIGGER';
  readonly validity: Validity;
  readonly product: Product;
  readonly isTsl?: boolean;
  readonly tslStepSize?: Paise;
  readonly remarks: string;
  readonly algoId?: string;
}

const PRICE_FIELDS = [
  ['limitPrice', 'limit_price'],
  ['triggerPrice', 'trigger_price'],
  ['triggerLimitPrice', 'trigger_limit_price'],
  ['slTriggerPrice', 'sl_trigger_price'],
  ['slLimitPrice', 'sl_limit_price'],
  ['tgtTriggerPrice', 'tgt_trigger_price'],
  ['tgtLimitPrice', 'tgt_limit_price'],
  ['tslStepSize', 'tsl_step_size'],
] as const;

export function smartOrderBody(o: SmartOrderRequest): Record<string, unknown> {
  const body = placementHeadBody(o);
  body['algo_id'] = o.algoId ?? algoIdFor(o.exchange);
  body['remarks'] = o.remarks;
  for (const [k, w] of PRICE_FIELDS) {
    const v = o[k];
    if (v !== undefined) body[w] = toRupees(v);
  }
  if (o.isTsl !== undefined) body['is_tsl'] = o.isTsl;
  return body;
}

export interface SmartModifyRequest extends SmartOrderPrices {
  readonly orderId: string;
  readonly segment: 'EQUITY' | 'DERIVATIVE';
  readonly orderType?: 'LIMIT' | 'MARKET' | 'TRIGGER';
  readonly qty?: number;
  /** The order's exchange, for its algo id (default NSE). */
  readonly exchange?: 'NSE' | 'BSE';
  readonly algoId?: string;
}

export function smartModifyBody(m: SmartModifyRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { order_id: m.orderId, segment: m.segment, algo_id: m.algoId ?? algoIdFor(m.exchange ?? 'NSE') };
  if (m.orderType) body['order_type'] = m.orderType;
  if (m.qty !== undefined) body['qty'] = m.qty;
  for (const [k, w] of PRICE_FIELDS) {
    if (k === 'tslStepSize') continue;
    const v = m[k];
    if (v !== undefined) body[w] = toRupees(v);
  }
  return body;
}

const ChildSchema = z.object({ order_id: idStr, order_status: z.string().default(''), leg: z.string().optional() });

export const SmartOrderAckSchema = z
  .object({
    order_data: z.array(
      z.object({
        order_id: idStr,
        order_status: z.string().default(''),
        child_order_details: z.union([ChildSchema, z.array(ChildSchema), z.null()]).optional(),
      }),
    ),
  })
  // One element per leg, each repeating the parent (wire-gaps): grouped here into one parent per id.
  .transform((d) => {
    const parents = new Map<string, { orderId: string; venueStatus: string; children: Array<{ orderId: string; venueStatus: string; leg?: string }> }>();
    for (const p of d.order_data) {
      let parent = parents.get(p.order_id);
      if (!parent) parents.set(p.order_id, (parent = { orderId: p.order_id, venueStatus: p.order_status, children: [] }));
      const kids = p.child_order_details == null ? [] : Array.isArray(p.child_order_details) ? p.child_order_details : [p.child_order_details];
      for (const c of kids) {
        if (!parent.children.some((x) => x.orderId === c.order_id)) parent.children.push({ orderId: c.order_id, venueStatus: c.order_status, ...(c.leg !== undefined ? { leg: c.leg } : {}) });
      }
    }
    return [...parents.values()];
  });
export type SmartOrderAck = z.output<typeof SmartOrderAckSchema>;
