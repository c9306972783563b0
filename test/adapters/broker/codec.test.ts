/** The wire codec on recorded payloads (test/fixtures/wire): tolerant where the broker drifts, loud where a payload is bad. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/core/paths.js';
import { decodeData } from '../../../src/adapters/broker/schemas/common.js';
import { FullQuotesSchema } from '../../../src/adapters/broker/schemas/quotes.js';
import { OrderBookSchema } from '../../../src/adapters/broker/schemas/orders.js';
import { historicalDataSchema } from '../../../src/adapters/broker/schemas/historical.js';
import { errorFromResponse } from '../../../src/adapters/broker/schemas/error.js';
import { GenerateTokenResponseSchema } from '../../../src/adapters/broker/schemas/account.js';
import { FrameDecoder, type StreamFrame } from '../../../src/adapters/broker/ws/frame-decoder.js';
import { orderStateFromRecord, orderStateFromUpdate } from '../../../src/adapters/broker/venue-codec.js';
import { normaliseStatus } from '../../../src/adapters/broker/order-status.js';
import { DataException } from '../../../src/adapters/broker/errors.js';
import { decode } from '../../../src/adapters/broker/schemas/common.js';
import { ContractPageSchema } from '../../../src/adapters/broker/schemas/contracts.js';

const dir = join(packageRoot(), 'test', 'fixtures', 'wire');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown;

describe('REST codec', () => {
  it('reads quotes with Indian digit grouping, string prices and "" for fields that do not apply', () => {
    const q = decodeData(FullQuotesSchema, fixture('quotes-full.json'), 'GET /market/quotes/full');
    const r = q['NSE_2885']!;
    expect(r.ltp).toBe(142650);
    expect(r.change).toBe(-530);
    expect(r.volume).toBe(10245311);
    expect(r.depth?.totalBuyQty).toBe(582909);
    expect(r.depth?.sellPercentage).toBe(34.75);
    expect(r.depth?.bids).toEqual([{ price: 142645, qty: 1024 }]);
    expect(r.depth?.asks).toEqual([
      { price: 142650, qty: 310 },
      { price: 142660, qty: 12 },
    ]);
    const blank = q['NSE_11536']!;
    expect(blank.ltp).toBe(355000);
    expect(blank.high).toBeUndefined();
    expect(blank.depth).toBeUndefined();
  });

  it('names the endpoint and the field when a price is unreadable', () => {
    const body = { status: 'success', data: { NSE_2885: { live_price: 'abc' } } };
    const err = (() => {
      try {
        decodeData(FullQuotesSchema, body, 'GET /market/quotes/full');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(DataException);
    expect((err as DataException).message).toContain('GET /market/quotes/full');
    expect((err as DataException).context['field']).toBe('data.NSE_2885.live_price');
  });

  it('refuses a body without data rather than reading nothing', () => {
    expect(() => decodeData(FullQuotesSchema, { status: 'success' }, 'GET /market/quotes/full')).toThrow(/no `data`/);
  });

  it('reads order-book records with string prices, blank fields, text timestamps and fractional averages', () => {
    const book = decodeData(OrderBookSchema, fixture('order-book.json'), 'GET /order-book');
    expect(book).toHaveLength(3);
    const [a, b, c] = book;
    expect(a).toMatchObject({ orderId: 'DRV-250000000017', qty: 75, price: 11235, filledQty: 0, status: 'OPEN', remarks: 'strat-a:17', isTsl: false });
    expect(a!.avgPrice).toBeUndefined();
    expect(a!.slTriggerPrice).toBeUndefined();
    expect(a!.createdAt).toBe(Date.parse('2026-11-20T09:16:02+05:30'));
    expect(b).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 4, avgPrice: 142651.25, side: 'SELL' });
    expect(c).toMatchObject({ status: 'REJECTED', reason: 'Insufficient funds: required 6,500.00', price: 130000 });
    expect(orderStateFromRecord(a!, 0)).toMatchObject({ orderId: 'DRV-250000000017', instrument: 'NFO_43219', tag: 'strat-a:17', status: 'OPEN', limitPrice: 11235 });
  });

  it('reads both historical candle forms to the same candles', () => {
    const a = decodeData(historicalDataSchema(['NSE_3045']), fixture('historical-object.json'), 'GET /market/historical/5minute');
    const b = decodeData(historicalDataSchema(['NSE_3045']), fixture('historical-array.json'), 'GET /market/historical/5minute');
    expect(a).toEqual(b);
    expect(a['NSE_3045']).toEqual([
      { start: 1732160100000, open: 81205, high: 81340, low: 81190, close: 81270, volume: 120400 },
      { start: 1732160400000, open: 81270, high: 81400, low: 81210, close: 81395, volume: 90211 },
    ]);
  });

  it('maps every error body shape to its coded class', () => {
    const cases = fixture('errors.json') as Array<{ status: number; body: unknown; class: string }>;
    for (const c of cases) {
      const e = errorFromResponse(c.status, c.body, 'GET /x');
      expect(e.name, JSON.stringify(c)).toBe(c.class);
      expect(e.context.endpoint).toBe('GET /x');
      expect(e.context.status).toBe(c.status);
    }
    const debug = errorFromResponse(400, { message: 'Bad Request', debug_info: 'underlying: FOO is invalid or unknown' }, 'GET /market/instruments/expired/contracts');
    expect(debug.context.brokerMessage).toBe('Bad Request: underlying: FOO is invalid or unknown');
    expect(errorFromResponse(429, {}, 'GET /x').retrySafe).toBe(true);
    expect(errorFromResponse(503, {}, 'POST /order', { write: true }).retrySafe).toBe(false);
    expect(errorFromResponse(503, {}, 'GET /funds').retrySafe).toBe(true);
  });

  it('finds the token in `token`, not `access_token`', () => {
    expect(decode(GenerateTokenResponseSchema, { status: 'success', data: { token: 'abc' } }, 'POST /generate/token')).toBe('abc');
    expect(() => decode(GenerateTokenResponseSchema, { status: 'success', data: { access_token: 'abc' } }, 'POST /generate/token')).toThrow(DataException);
  });

  it('reads contract pages with null strikes for futures', () => {
    const p = decode(ContractPageSchema, { count: 2, page: 1, page_size: 50, instruments: [
      { security_id: 35001, trading_symbol: 'NIFTY26NOVFUT', expiry: '2026-11-23', strike_price: null, option_type: null, lot_size: 65 },
      { security_id: '35002', trading_symbol: 'NIFTY26NOV19100CE', expiry: '2026-11-23', strike_price: '19,100', option_type: 'CE', lot_size: '65' },
    ] }, 'GET /market/instruments/search');
    expect(p.instruments[0]).toEqual({ securityId: '35001', tradingSymbol: 'NIFTY26NOVFUT', expiry: '2026-11-23', strike: undefined, optionType: undefined, lotSize: 65 });
    expect(p.instruments[1]!.strike).toBe(1910000);
  });

  it('normalises every documented status and refuses to guess unknown ones', () => {
    expect(normaliseStatus('SUCCESS')).toBe('FILLED');
    expect(normaliseStatus('PARTIALLY FILLED - CANCELLED')).toBe('CANCELLED');
    expect(normaliseStatus('PARTIALLY FILLED - EXPIRED')).toBe('EXPIRED');
    expect(normaliseStatus('SL-PENDING')).toBe('TRIGGER_PENDING');
    expect(normaliseStatus('O-PENDING')).toBe('OPEN');
    expect(normaliseStatus('MODIFIED', 3)).toBe('PARTIALLY_FILLED');
    expect(normaliseStatus('QUEUED')).toBe('PENDING_NEW');
    expect(normaliseStatus('FAILED')).toBe('REJECTED');
    expect(normaliseStatus('s')).toBe('FILLED');
    expect(normaliseStatus('C')).toBe('CANCELLED');
    expect(normaliseStatus('WHATEVER')).toBeUndefined();
  });
});

describe('WebSocket frame decoder', () => {
  const messages = readFileSync(join(dir, 'ws-frames.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const v = JSON.parse(l) as unknown;
      return v && typeof v === 'object' && 'raw' in v ? (v as { raw: string }).raw : l;
    });

  it('decodes plain, double-encoded, batched and partial frames, merging partial ticks per instrument', () => {
    const d = new FrameDecoder({ stream: 'ws:prices', resolveBareId: (id) => (id === '43219' ? 'NFO_43219' : undefined) });
    const frames: StreamFrame[] = [];
    const errors: DataException[] = [];
    for (const m of messages) d.decode(Buffer.from(m), (f) => frames.push(f), (e) => errors.push(e));
    const ticks = frames.flatMap((f) => (f.kind === 'tick' ? [f.tick] : []));
    expect(ticks.map((t) => t.instrument)).toEqual(['NSE_2885', 'NSE_11536', 'NSE_11536', 'NFO_43219']);
    expect(ticks[0]).toMatchObject({ ltp: 142650, ts: 1795146314000 });
    expect(ticks[1]).toMatchObject({ ltp: 355005, volume: 1240112, bid: 355000, ask: 355010, askQty: 25, open: 354000, close: 354940 });
    // The partial frame changes ltp and volume only; the rest is carried from the last full state.
    expect(ticks[2]).toMatchObject({ ltp: 355100, volume: 1240200, bid: 355000, ask: 355010, open: 354000, high: 356120, ts: 1795146314200 });
    expect(ticks[3]).toMatchObject({ ltp: 11235 });
    expect(frames.some((f) => f.kind === 'heartbeat')).toBe(true);
    const upd = frames.find((f) => f.kind === 'order_update');
    expect(upd).toBeDefined();
    // The last message is broken: reported with the field, the others still decoded.
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/ws:prices: tick field ltp/);
    expect(d.errors).toBe(1);
  });

  it('maps a bare numeric order id and a one-letter status on the order stream', () => {
    const d = new FrameDecoder({ stream: 'ws:orders' });
    const frames: StreamFrame[] = [];
    d.decode(messages[4]!, (f) => frames.push(f), (e) => {
      throw e;
    });
    const f = frames[0]!;
    if (f.kind !== 'order_update') throw new Error('expected an order update');
    const s = orderStateFromUpdate(f.data, f.ts, (raw) => (raw === '250000000017' ? 'DRV-250000000017' : raw));
    expect(s).toMatchObject({ orderId: 'DRV-250000000017', status: 'FILLED', venueStatus: 'S', filledQty: 75, qty: 75, avgPrice: 11235, instrument: 'NFO_43219', side: 'BUY' });
  });

  it('refuses an unknown status on the stream instead of guessing', () => {
    expect(() => orderStateFromUpdate({ order_id: '1', order_status: 'Z?' }, 0)).toThrow(/status the codec does not know/);
  });
});
