/**
 * A client that stops reading while the market keeps ticking is conflated: its ticks are held as
 * the latest per instrument, so when it reads again it gets the current state of each instrument
 * (not the whole backlog), and order updates sent meanwhile still arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { istDateTime } from '../../../../src/core/time.js';
import { until } from '../../../support/wait.js';
import { marketOrderBody, startHarness, type Harness } from '../server/sim-harness.js';

type Msg = Record<string, unknown>;
const OPEN = istDateTime('2026-11-20', '09:15');
const clock = new VirtualClock(OPEN + 60_000);
let h: Harness;

beforeAll(async () => {
  // Every equity ticks every 250 ms of market time; a small conflation threshold.
  h = await startHarness({ clock, rateLimits: false, ws: { conflateBytes: 64 * 1024 }, venue: { tickIntervals: { cash: 250, futures: 600_000, options: 3_600_000 }, pumpMs: 1_000 } });
});
afterAll(() => h.close());

describe('WebSocket conflation of a slow reader', () => {
  it('sends a paused reader the latest tick per instrument when it reads again, and every order update', async () => {
    const master = await h.call('GET', '/market/instruments?source=equity');
    const codes = master.text.split('\n').slice(1).map((l) => l.split(',')).filter((c) => c[0] === 'NSE').map((c) => c[2]!).slice(0, 40);
    const c = await h.ws();
    c.send({ action: 'subscribe', mode: 'ltp', instruments: codes.map((x) => `NSE:${x}`) });
    c.send({ action: 'subscribe', mode: 'order_update' });
    await c.next((m) => m['type'] === 'ack' && m['stream'] === 'order_update');
    const sock = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    sock.pause();
    // Twenty market minutes: 40 instruments x 4,800 ticks, ~25 MB of frames, far past the socket buffers.
    for (let k = 0; k < 20; k++) await h.admin('POST', '/sim/clock', { advance_ms: 60_000 });
    const order = await h.call<{ data: { order_id: string } }>('POST', '/order', { body: marketOrderBody('conflation-1') });
    expect(order.status, order.text.slice(0, 200)).toBe(200);
    const before = c.messages.length;
    sock.resume();
    await c.next((m) => m['mode'] === 'order_update' && (m['data'] as Msg)['order_id'] === order.body.data.order_id);
    // The current price of every instrument arrives, and far fewer frames than ticks were made.
    const current = (code: string): number => h.sim.venue.lastTick(`NSE_${code}`)!.ltp / 100;
    const lastSeen = (code: string): number | undefined => {
      for (let k = c.messages.length - 1; k >= 0; k--) {
        const m = c.messages[k] as Msg;
        if (m['mode'] === 'ltp' && m['instrument'] === code) return (m['data'] as { ltp: number }).ltp;
      }
      return undefined;
    };
    await until(() => codes.every((x) => lastSeen(x) !== undefined && lastSeen(x) === current(x)), 'the latest tick of every instrument');
    const ticks = c.messages.slice(before).filter((m) => (m as Msg)['mode'] === 'ltp').length;
    expect(ticks).toBeLessThan((40 * 4_800) / 2);
    expect(c.closed).toBeUndefined();
  });
});
