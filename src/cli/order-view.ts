/**
 * Orders and trades as a person reads them (`tarang order book|trades`, `account orders|trades`):
 * IST times, the trading symbol beside the scrip code, rupees with Indian grouping, who placed
 * the order (by its tag: an engine's, by hand, the broker's square-off, or outside tarang); and
 * the summary shown before a write is confirmed.
 */
import { rupees, table } from '../adapters/broker/cli-support.js';
import type { OrderRecord, Trade } from '../adapters/broker/schemas/orders.js';
import { legName, scripFor } from '../adapters/broker/venue-codec.js';
import type { SmartLegName } from '../core/intents.js';
import { isManualTag, parseTag } from '../adapters/execution/tags.js';
import { formatInr, type Paise } from '../core/money.js';
import { formatIst } from '../core/time.js';
import { isBrokerSquareOff } from '../risk/rules/square-off.js';

export interface Names {
  symbolOf(code: string | undefined): string;
}

/** The scrip code of an order-book record (`NSE_1333`), when its fields say. */
export function recordCode(r: OrderRecord): string | undefined {
  return scripFor(r.exchange, r.segment, r.securityId);
}

/** The scrip code of a trade: the book's `scrip_code`, else rebuilt from its security id. */
export function tradeCode(t: Trade, byOrder: ReadonlyMap<string, OrderRecord>): string | undefined {
  if (t.scripCode) return t.scripCode.replace(':', '_');
  const o = t.orderId ? byOrder.get(t.orderId) : undefined;
  return o ? recordCode(o) : scripFor(undefined, undefined, t.securityId);
}

/** Who placed an order, from its tag. */
export function placedBy(tag: string | undefined): string {
  if (tag === undefined || tag === '') return 'outside tarang';
  if (isManualTag(tag)) return 'by hand';
  if (isBrokerSquareOff(tag)) return 'broker square-off';
  if (parseTag(tag)) return 'engine';
  return 'outside tarang';
}

const LEG_LABEL: Readonly<Record<SmartLegName, string>> = { entry: 'entry', stopLoss: 'stop-loss', target: 'target' };

function legLabel(o: OrderRecord): string {
  const leg = legName(o.leg);
  return leg ? LEG_LABEL[leg] : o.smartOrderId !== undefined ? 'entry' : '';
}

/**
 * The trigger of one record: a smart order's records each repeat both legs' triggers, so a leg
 * shows its own and a LIMIT entry none; a plain record its stop-loss trigger.
 */
function triggerOf(o: OrderRecord): Paise | undefined {
  if (o.smartOrderId === undefined) return o.slTriggerPrice;
  const leg = legName(o.leg) ?? 'entry';
  if (leg === 'target') return o.tgtTriggerPrice;
  if (leg === 'stopLoss') return o.slTriggerPrice;
  return undefined;
}

function time(ts: number | undefined): string {
  return ts === undefined ? '' : formatIst(ts).slice(11, 19);
}

export function bookTable(rows: readonly OrderRecord[], names: Names): string {
  const legs = rows.some((r) => r.leg !== undefined);
  return table(
    rows.map((o) => {
      const code = recordCode(o);
      return {
        time: time(o.createdAt),
        order_id: o.orderId,
        symbol: names.symbolOf(code) || o.name,
        code,
        side: o.side,
        ...(legs ? { leg: legLabel(o) } : {}),
        type: o.orderType,
        product: o.product,
        qty: o.qty,
        filled: o.filledQty,
        price: rupees(o.price),
        trigger: rupees(triggerOf(o)),
        avg: o.avgPrice === undefined ? '' : rupees(o.avgPrice),
        status: o.venueStatus,
        tag: o.remarks,
        by: placedBy(o.remarks),
        reason: o.reason,
      };
    }),
  );
}

export function tradesTable(rows: readonly Trade[], book: readonly OrderRecord[], names: Names): string {
  const byOrder = new Map(book.map((o) => [o.orderId, o]));
  return table(
    rows.map((t) => {
      const code = tradeCode(t, byOrder);
      const side = t.side === 'B' ? 'BUY' : t.side === 'S' ? 'SELL' : t.side;
      return {
        time: time(t.ts),
        fill_id: t.fillId,
        order_id: t.orderId,
        symbol: names.symbolOf(code),
        code,
        side,
        qty: t.qty,
        price: rupees(t.price),
        value: t.price === undefined ? '' : rupees(t.price * t.qty),
        product: t.product,
        tag: t.remarks,
      };
    }),
  );
}

/** One line per fact of an order write, for the confirmation and the record it prints after. */
export function summaryLines(facts: ReadonlyArray<readonly [string, string | undefined]>): string {
  const shown = facts.filter(([, v]) => v !== undefined && v !== '') as ReadonlyArray<readonly [string, string]>;
  const w = Math.max(...shown.map(([k]) => k.length));
  return shown.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n') + '\n';
}

export function inr(p: Paise | undefined): string | undefined {
  return p === undefined ? undefined : formatInr(Math.round(p));
}
