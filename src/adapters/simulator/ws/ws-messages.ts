/**
 * WebSocket wire shapes (wire-gaps "WebSocket"): the client's subscribe / unsubscribe frames and
 * the server's ticks, order and position updates, acks, errors and heartbeats.
 */
import { z } from 'zod';
import { toRupees } from '../../../core/money.js';
import type { SimOrder, SimPosition } from '../matching/types.js';
import { positionWire } from '../server/record-wire.js';
import type { MarketQuote, MarketTick } from '../server/venue.js';

export const TickMode = { LTP: 'ltp', QUOTE: 'quote', FULL: 'full' } as const;
export type TickMode = (typeof TickMode)[keyof typeof TickMode];

export const StreamMode = { ORDER_UPDATE: 'order_update', POSITION_UPDATE: 'position_update' } as const;
export type StreamMode = (typeof StreamMode)[keyof typeof StreamMode];

const WS_KEY = /^(NSE|BSE|NFO|BFO|NIDX|BIDX):(\d+)$/;

export const clientFrameSchema = z.discriminatedUnion('mode', [
  z.object({
    action: z.enum(['subscribe', 'unsubscribe'], { error: 'expected subscribe or unsubscribe' }),
    mode: z.enum([TickMode.LTP, TickMode.QUOTE, TickMode.FULL]),
    instruments: z.array(z.string().regex(WS_KEY, 'expected an instrument key like NSE:2885'), { error: 'expected an array of keys like NSE:2885' }).min(1, 'must not be empty'),
  }),
  z.object({
    action: z.enum(['subscribe', 'unsubscribe'], { error: 'expected subscribe or unsubscribe' }),
    mode: z.enum([StreamMode.ORDER_UPDATE, StreamMode.POSITION_UPDATE]),
  }),
], { error: 'mode: expected ltp, quote, full, order_update or position_update' });

/** `NSE:2885` -> `NSE_2885`. */
export function wsKeyToScrip(key: string): string {
  return key.replace(':', '_');
}

export function scripToWsKey(code: string): string {
  return code.replace('_', ':');
}

function prefixOf(code: string): string {
  return code.slice(0, code.indexOf('_'));
}

function idOf(code: string): string {
  return code.slice(code.indexOf('_') + 1);
}

/** The `data` member of a tick in `mode`; `quote` (with the book totals) is asked for in full mode only. */
export function tickData(mode: TickMode, q: MarketTick, quote: () => MarketQuote | undefined): Record<string, number> {
  if (mode === TickMode.LTP) return { ltp: toRupees(q.ltp) };
  const base: Record<string, number> = {
    ltp: toRupees(q.ltp),
    open: toRupees(q.open),
    high: toRupees(q.high),
    low: toRupees(q.low),
    close: toRupees(q.close),
    volume: q.volume,
    ltt: q.ltt ?? q.ts,
  };
  if (mode === TickMode.QUOTE) return base;
  const full = quote();
  return {
    ...base,
    total_buy_qty: full?.totalBuyQty ?? q.bidQty,
    total_sell_qty: full?.totalSellQty ?? q.askQty,
    oi: q.oi ?? 0,
    bid_price: toRupees(q.bid),
    bid_qty: q.bidQty,
    ask_price: toRupees(q.ask),
    ask_qty: q.askQty,
  };
}

/** A tick frame: `instrument` is the bare id (wire-gaps); `exchange` names its segment prefix. */
export function tickFrame(mode: TickMode, q: MarketTick, data: Record<string, number>): string {
  return JSON.stringify({ mode, instrument: idOf(q.instrument), exchange: prefixOf(q.instrument), timestamp: q.ts, data });
}

/** The book totals a full-mode tick carries (the full quote's), when the venue models the instrument. */
export interface BookTotals {
  readonly buy: number;
  readonly sell: number;
}

/** A number as JSON.stringify writes it (a non-finite one is `null`). */
function num(v: number): string {
  return Number.isFinite(v) ? `${v}` : 'null';
}

/**
 * `{"mode":…,"instrument":…,"exchange":…,"timestamp":` per mode and instrument, made once: bounded
 * by the instruments a simulator quotes (a few thousand in a run, the universe at most).
 */
const heads: Readonly<Record<TickMode, Map<string, string>>> = { ltp: new Map(), quote: new Map(), full: new Map() };

function headOf(mode: TickMode, instrument: string): string {
  const byCode = heads[mode];
  let h = byCode.get(instrument);
  if (h === undefined) {
    h = JSON.stringify({ mode, instrument: idOf(instrument), exchange: prefixOf(instrument), timestamp: 0 });
    // Everything up to the timestamp's value: drop the `0}`.
    h = h.slice(0, h.length - 2);
    byCode.set(instrument, h);
  }
  return h;
}

/**
 * The same text as `tickFrame(mode, q, tickData(mode, q, quote))` (same members, same order, same
 * numbers), written directly: the hub makes one per tick per mode, at tens of thousands a second
 * for a 3,000-instrument subscriber, and the object, its spread and the full quote behind
 * `tickData` were most of the simulator's CPU and garbage per tick sent. Test-pinned to that form.
 */
export function tickFrameText(mode: TickMode, q: MarketTick, totals: BookTotals | undefined): string {
  const head = `${headOf(mode, q.instrument)}${num(q.ts)},"data":{"ltp":${num(toRupees(q.ltp))}`;
  if (mode === TickMode.LTP) return `${head}}}`;
  const base = `${head},"open":${num(toRupees(q.open))},"high":${num(toRupees(q.high))},"low":${num(toRupees(q.low))},"close":${num(toRupees(q.close))},"volume":${num(q.volume)},"ltt":${num(q.ltt ?? q.ts)}`;
  if (mode === TickMode.QUOTE) return `${base}}}`;
  return (
    `${base},"total_buy_qty":${num(totals?.buy ?? q.bidQty)},"total_sell_qty":${num(totals?.sell ?? q.askQty)},"oi":${num(q.oi ?? 0)}` +
    `,"bid_price":${num(toRupees(q.bid))},"bid_qty":${num(q.bidQty)},"ask_price":${num(toRupees(q.ask))},"ask_qty":${num(q.askQty)}}}`
  );
}

/**
 * One-letter statuses as observed on the live order stream (never published): the initial of the
 * full status; a dormant smart leg (`PENDING`) waits for a trigger.
 */
const TERSE_STATUS: Readonly<Record<string, string>> = {
  QUEUED: 'Q',
  PROCESSING: 'Q',
  INITIATED: 'Q',
  'O-PENDING': 'O',
  'SL-PENDING': 'T',
  PENDING: 'T',
  'PARTIALLY FILLED': 'P',
  MODIFIED: 'M',
  SUCCESS: 'S',
  CANCELLED: 'C',
  'PARTIALLY FILLED - CANCELLED': 'C',
  EXPIRED: 'E',
  'PARTIALLY FILLED - EXPIRED': 'E',
  FAILED: 'F',
  ABORTED: 'A',
};

/** `terse`: the observed live form, a bare numeric order id and a one-letter status. */
export function orderUpdateFrame(ts: number, o: SimOrder, terse = false): string {
  return JSON.stringify({
    mode: StreamMode.ORDER_UPDATE,
    timestamp: ts,
    data: {
      order_id: terse ? o.orderId.replace(/^[A-Z]+-/, '') : o.orderId,
      exch_order_id: o.exchOrderId,
      order_status: terse ? (TERSE_STATUS[o.venueStatus] ?? o.venueStatus) : o.venueStatus,
      security_id: o.securityId,
      name: o.tradingSymbol,
      exchange: o.exchange,
      segment: o.segment,
      txn_type: o.side,
      product: o.product,
      order_type: o.orderType,
      quantity: o.qty,
      filled_quantity: o.filledQty,
      remaining_quantity: Math.max(0, o.qty - o.filledQty),
      average_price: o.filledQty > 0 ? Math.round(o.avgPrice * 100) / 10_000 : 0,
      limit_price: o.limitPrice === undefined ? null : toRupees(o.limitPrice),
      trigger_price: o.triggerPrice === undefined ? null : toRupees(o.triggerPrice),
      extra_info: o.extraInfo,
      remarks: o.remarks,
      updated_at: o.updatedAt,
    },
  });
}

export function positionUpdateFrame(ts: number, p: SimPosition): string {
  return JSON.stringify({ mode: StreamMode.POSITION_UPDATE, timestamp: ts, data: positionWire(p) });
}

/**
 * Acks and errors name the subscription `stream`, never `mode`: clients dispatch data frames on
 * `mode`, and a control frame must not look like a tick.
 */
export function ackFrame(action: string, stream: string, instruments: readonly string[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'ack', action, stream, instruments, ...extra });
}

export function errorFrame(message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'error', message, ...extra });
}

export function heartbeatFrame(ts: number): string {
  return JSON.stringify({ type: 'heartbeat', timestamp: ts });
}
