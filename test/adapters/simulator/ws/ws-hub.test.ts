import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketOrderBody, startHarness, WsClient, type Harness } from '../server/sim-harness.js';
import { until } from '../../../support/wait.js';

let h: Harness;
beforeAll(async () => {
  // Heartbeats every second of wall time: often enough to see one, and a connection is only closed
  // for a missing pong after two, which a loaded machine's event loop does not stall for.
  h = await startHarness({ rateLimits: false, ws: { heartbeatMs: 1000 } });
});
afterAll(async () => h?.close());

type Msg = Record<string, unknown>;


async function refused(token: string): Promise<{ status: number; body: string }> {
  try {
    const c = await WsClient.open(h.sim.wsUrl, token);
    c.ws.terminate();
    throw new Error('handshake was accepted');
  } catch (e) {
    return e as { status: number; body: string };
  }
}

describe('WebSocket (spec 6, wire-gaps)', () => {
  it('refuses a dead token at the handshake', async () => {
    const e = await refused('not-a-token');
    expect(e.status).toBe(403);
    expect(JSON.parse(e.body)).toMatchObject({ error_type: 'TokenException' });
  });

  it('survives clients that reset the connection while being refused (a killed process)', async () => {
    const { port } = new URL(h.sim.wsUrl);
    for (let i = 0; i < 20; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: dead-token-${i}\r\n\r\n`);
      socket.resetAndDestroy();
    }
    // Still serving: the next refusal is answered as usual.
    expect((await refused('not-a-token')).status).toBe(403);
  });

  it('sends a tick after a subscribe, and another when the price moves', async () => {
    const c = await h.ws();
    c.send({ action: 'subscribe', mode: 'ltp', instruments: ['NSE:2885'] });
    const ack = await c.next((m) => m['type'] === 'ack');
    expect(ack).toMatchObject({ action: 'subscribe', stream: 'ltp', instruments: ['NSE:2885'] });
    const first = await c.next((m) => m['mode'] === 'ltp');
    expect(first).toMatchObject({ mode: 'ltp', instrument: '2885', timestamp: expect.any(Number), data: { ltp: expect.any(Number) } });
    expect(Object.keys(first['data'] as object)).toEqual(['ltp']);
    await h.admin('POST', '/sim/prices', { security_id: '2885', price: 1500 });
    const moved = await c.next((m) => m['mode'] === 'ltp' && (m['data'] as { ltp: number }).ltp === 1500);
    expect(moved['timestamp']).toBe(h.clock.now());
    c.ws.close();
  });

  it('sends full-mode ticks with the wire-gaps fields', async () => {
    const c = await h.ws();
    c.send({ action: 'subscribe', mode: 'full', instruments: ['NSE:2885'] });
    const t = await c.next<Msg>((m) => m['mode'] === 'full');
    for (const k of ['ltp', 'open', 'high', 'low', 'close', 'volume', 'total_buy_qty', 'total_sell_qty', 'oi', 'ltt', 'bid_price', 'ask_price']) {
      expect(t['data'], k).toHaveProperty(k);
    }
    c.ws.close();
  });

  it('pushes an order update and a position update after subscribing to them', async () => {
    const c = await h.ws();
    c.send({ action: 'subscribe', mode: 'order_update' });
    c.send({ action: 'subscribe', mode: 'position_update' });
    await c.next((m) => m['type'] === 'ack' && m['stream'] === 'position_update');
    const placed = await h.call<{ data: { order_id: string } }>('POST', '/order', { body: marketOrderBody('ws-order-1') });
    expect(placed.status, placed.text).toBe(200);
    const id = placed.body.data.order_id;
    const filled = await c.next<Msg>((m) => m['mode'] === 'order_update' && (m['data'] as Msg)['order_id'] === id && (m['data'] as Msg)['order_status'] === 'SUCCESS');
    expect(filled['data']).toMatchObject({ filled_quantity: 1, remaining_quantity: 0, remarks: 'ws-order-1' });
    expect((filled['data'] as Msg)['average_price']).toBeGreaterThan(0);
    const pos = await c.next<Msg>((m) => m['mode'] === 'position_update');
    expect(pos['data']).toMatchObject({ security_id: '2885', product: 'INTRADAY' });
    c.ws.close();
  });

  it('sends order updates in the observed terse form on the terse-orders fault', async () => {
    const c = await h.ws();
    c.send({ action: 'subscribe', mode: 'order_update' });
    await c.next((m) => m['type'] === 'ack');
    await h.admin('POST', '/sim/faults', { ws_terse_orders: true });
    const placed = await h.call<{ data: { order_id: string } }>('POST', '/order', { body: marketOrderBody('ws-terse-1') });
    const bare = placed.body.data.order_id.replace(/^[A-Z]+-/, '');
    const u = await c.next<Msg>((m) => m['mode'] === 'order_update' && (m['data'] as Msg)['order_status'] === 'S');
    expect((u['data'] as Msg)['order_id']).toBe(bare);
    await h.admin('DELETE', '/sim/faults');
    c.ws.close();
  });

  it('takes only the first segment of a mixed frame, and refuses frames past the limits', async () => {
    const c = await h.ws();
    c.send({ action: 'subscribe', mode: 'ltp', instruments: ['NSE:2885', 'NIDX:13'] });
    const ack = await c.next((m) => m['type'] === 'ack');
    expect(ack).toMatchObject({ instruments: ['NSE:2885'], ignored: ['NIDX:13'] });
    c.send({ action: 'subscribe', mode: 'ltp', instruments: Array.from({ length: 1001 }, (_, i) => `NSE:${i}`) });
    const tooMany = await c.next((m) => m['type'] === 'error');
    expect(tooMany['message']).toMatch(/at most 1000 instruments per frame/);
    c.send({ action: 'subscribe', mode: 'ltp', instruments: ['NSE:99999999'] });
    const unknown = await c.next((m) => m['type'] === 'error' && String(m['message']).includes('99999999'));
    expect(unknown['message']).toMatch(/not a known instrument/);
    c.send('{"action":"subscribe","mode":"nope","instruments":[]}');
    const badMode = await c.next((m) => m['type'] === 'error' && String(m['message']).startsWith('mode'));
    expect(badMode['message']).toMatch(/^mode:/);
    c.ws.close();
  });

  it('refuses subscriptions past 3000 instruments a connection', async () => {
    const csv = (await h.call('GET', '/market/instruments?source=fno')).text;
    const ids = csv.split('\n').slice(1).filter((l) => l.startsWith('NSE,')).map((l) => l.split(',')[2]!).slice(0, 3001);
    expect(ids.length).toBe(3001);
    const c = await h.ws();
    for (let i = 0; i < 3000; i += 1000) {
      c.send({ action: 'subscribe', mode: 'ltp', instruments: ids.slice(i, i + 1000).map((id) => `NFO:${id}`) });
      await c.next((m) => m['type'] === 'ack' && (m['instruments'] as string[])[0] === `NFO:${ids[i]}`);
    }
    c.send({ action: 'subscribe', mode: 'ltp', instruments: [`NFO:${ids[3000]}`] });
    const err = await c.next((m) => m['type'] === 'error');
    expect(err['message']).toMatch(/at most 3000 instruments per connection/);
    c.ws.close();
    await c.waitClosed();
  });

  it('refuses a 4th connection with a clear message', async () => {
    const open = [await h.ws(), await h.ws(), await h.ws()];
    const e = await refused(h.token);
    expect(e.status).toBe(429);
    expect(JSON.parse(e.body).message).toMatch(/at most 3 active connections/);
    for (const c of open) c.ws.close();
    await Promise.all(open.map((c) => c.waitClosed()));
  });

  it('sends heartbeats, and closes connections whose token is revoked', async () => {
    const t = (await h.admin<{ data: { access_token: string } }>('POST', '/sim/tokens/dashboard')).body.data.access_token;
    const c = await h.ws(t);
    await c.next((m) => m['type'] === 'heartbeat');
    await h.admin('POST', '/sim/tokens/revoke', { token: t });
    const closed = await c.waitClosed();
    expect(closed.code).toBe(4003);
    expect(closed.reason).toMatch(/revoked/);
  });

  it('drops every connection on the drop fault, and double-encodes and batches frames when asked', async () => {
    const c = await h.ws();
    await h.admin('POST', '/sim/faults', { ws_drop: true });
    const closed = await c.waitClosed();
    expect(closed.code).toBe(1006);

    const d = await h.ws();
    await h.admin('POST', '/sim/faults', { ws_double_encode: true, ws_batch: true });
    d.send({ action: 'subscribe', mode: 'ltp', instruments: ['NSE:2885', 'NSE:1333'] });
    // Double-encoded frames are strings to the harness, so wait on the raw frames themselves.
    await until(() => d.raw.length >= 1, 'the batched answer to the subscription');
    await h.admin('DELETE', '/sim/faults');
    const raw = d.raw[0]!;
    const inner = JSON.parse(raw) as string;
    expect(typeof inner).toBe('string');
    const frames = inner.split('\n').map((l) => JSON.parse(l) as Msg);
    expect(frames[0]).toMatchObject({ type: 'ack' });
    expect(frames.filter((f) => f['mode'] === 'ltp')).toHaveLength(2);
    d.ws.close();
  });

  it('sends only changed fields on the partial-ticks fault', async () => {
    const c = await h.ws();
    await h.admin('POST', '/sim/faults', { ws_partial: true });
    c.send({ action: 'subscribe', mode: 'full', instruments: ['NSE:1333'] });
    const first = await c.next<Msg>((m) => m['mode'] === 'full');
    const target = Math.round(Number((first['data'] as Msg)['ltp'])) + 1;
    await h.admin('POST', '/sim/prices', { security_id: '1333', price: target });
    const second = await c.next<Msg>((m) => m['mode'] === 'full' && (m['data'] as Msg)['ltp'] === target);
    expect(Object.keys(second['data'] as object).length).toBeLessThan(12);
    await h.admin('DELETE', '/sim/faults');
    c.ws.close();
  });

  it('stalls: keeps the connection open but sends nothing', async () => {
    const c = await h.ws();
    c.send({ action: 'subscribe', mode: 'ltp', instruments: ['NSE:2885'] });
    await c.next((m) => m['mode'] === 'ltp');
    await h.admin('POST', '/sim/faults', { ws_stall: true });
    const n = c.messages.length;
    await h.admin('POST', '/sim/prices', { security_id: '2885', price: 1510 });
    // Longer than a heartbeat period: a stalled stream sends neither the tick nor a heartbeat.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(c.messages.length).toBe(n);
    expect(c.closed).toBeUndefined();
    await h.admin('DELETE', '/sim/faults');
    c.ws.close();
  });

  // Last: it moves the clock a day on, past every token's life.
  it('closes a stream when its token expires', async () => {
    const c = await h.ws();
    await h.admin('POST', '/sim/clock', { advance_ms: 24 * 3_600_000 });
    const closed = await c.waitClosed();
    expect(closed).toEqual({ code: 4003, reason: 'access token expired' });
  });
});
