import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/core/log.js';
import type { AlertEvent, Event } from '../../../src/core/events.js';
import { Alerter } from '../../../src/adapters/ops/alerter.js';
import { WebhookNotifier } from '../../../src/adapters/ops/webhook.js';
import { harness } from '../execution/harness.js';

interface Hook {
  url: string;
  bodies: Array<Record<string, unknown>>;
  close: () => Promise<void>;
}

/** A real HTTP webhook receiver on loopback; `statuses` are answered in turn (then 200). */
async function hook(statuses: number[] = []): Promise<Hook> {
  const bodies: Array<Record<string, unknown>> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      bodies.push(JSON.parse(data) as Record<string, unknown>);
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

const hooks: Hook[] = [];
afterEach(async () => {
  for (const h of hooks.splice(0)) await h.close();
});

const noSleep = async (): Promise<void> => {};

describe('Alerter', () => {
  it('alerts when a connection stays down longer than the threshold, and on its recovery', async () => {
    const clock = new VirtualClock(1_000_000);
    const bus: Event[] = [];
    const alerter = new Alerter({ clock, log: silentLogger(), disconnectAlertMs: 30_000, publish: (a) => { bus.push(a); alerter.observe(a); } });
    alerter.observe({ type: 'lifecycle', ts: clock.now(), phase: 'disconnected', source: 'ws:prices', detail: 'socket closed' });
    clock.advanceBy(29_000);
    expect(alerter.raised).toHaveLength(0);
    clock.advanceBy(1_000);
    expect(alerter.raised.map((a) => a.code)).toEqual(['DISCONNECTED']);
    expect(alerter.raised[0]!.message).toBe('ws:prices disconnected for more than 30 s (socket closed)');
    clock.advanceBy(15_000);
    alerter.observe({ type: 'lifecycle', ts: clock.now(), phase: 'connected', source: 'ws:prices' });
    expect(alerter.raised.map((a) => a.code)).toEqual(['DISCONNECTED', 'RECONNECTED']);
    expect(alerter.raised[1]!.message).toBe('ws:prices reconnected after 45 s');
    expect(bus).toHaveLength(2);
  });

  it('raises WS_STALLED once for a stream that stalls, reconnects and stalls again, and WS_FLOWING when frames flow', () => {
    const clock = new VirtualClock(0);
    const alerter = new Alerter({ clock, log: silentLogger(), disconnectAlertMs: 30_000 });
    const ev = (phase: 'connected' | 'disconnected', cause: 'stalled' | 'reconnected' | 'flowing') => alerter.observe({ type: 'lifecycle', ts: clock.now(), phase, source: 'venue:paper', cause, detail: 'closed (1006)' });
    for (let i = 0; i < 3; i++) {
      ev('disconnected', 'stalled');
      clock.advanceBy(1_000);
      ev('connected', 'reconnected');
      clock.advanceBy(20_000);
    }
    expect(alerter.raised.map((a) => a.code)).toEqual(['WS_STALLED']);
    expect(alerter.stalled.has('venue:paper')).toBe(true);
    ev('connected', 'flowing');
    expect(alerter.raised.map((a) => [a.code, a.level, a.message])).toEqual([
      ['WS_STALLED', 'critical', 'venue:paper stalled: no frame within the stall timeout; reconnecting until frames flow again'],
      ['WS_FLOWING', 'info', 'venue:paper frames flowing again after a stall of 63 s'],
    ]);
    ev('disconnected', 'stalled');
    expect(alerter.raised.map((a) => a.code)).toEqual(['WS_STALLED', 'WS_FLOWING', 'WS_STALLED']);
  });

  it('raises STORE_DISCONNECTED for a store down past the threshold and STORE_RECONNECTED when it is back', () => {
    const clock = new VirtualClock(0);
    const alerter = new Alerter({ clock, log: silentLogger(), disconnectAlertMs: 10_000 });
    alerter.observe({ type: 'lifecycle', ts: 0, phase: 'disconnected', source: 'store', cause: 'dropped' });
    clock.advanceBy(10_000);
    alerter.observe({ type: 'lifecycle', ts: clock.now(), phase: 'connected', source: 'store', cause: 'reconnected' });
    expect(alerter.raised.map((a) => [a.code, a.level])).toEqual([
      ['STORE_DISCONNECTED', 'critical'],
      ['STORE_RECONNECTED', 'info'],
    ]);
    expect(alerter.raised[0]!.message).toMatch(/^the store is unreachable .* for more than 10 s$/);
  });

  it('raises RECONNECTS_REPEATED once for count reconnects within the window, and RECONNECTS_SETTLED after a quiet window', () => {
    const clock = new VirtualClock(0);
    const alerter = new Alerter({ clock, log: silentLogger(), reconnects: { count: 3, windowMs: 60_000 } });
    const flap = () => {
      alerter.observe({ type: 'lifecycle', ts: clock.now(), phase: 'disconnected', source: 'ws:prices#0', cause: 'dropped' });
      alerter.observe({ type: 'lifecycle', ts: clock.now(), phase: 'connected', source: 'ws:prices#0', cause: 'reconnected' });
    };
    flap();
    clock.advanceBy(40_000);
    flap();
    clock.advanceBy(40_000);
    flap(); // the first is out of the window: two within it
    expect(alerter.raised).toHaveLength(0);
    for (let i = 0; i < 4; i++) {
      clock.advanceBy(5_000);
      flap();
    }
    expect(alerter.raised.map((a) => a.code)).toEqual(['RECONNECTS_REPEATED']);
    clock.advanceBy(59_999);
    expect(alerter.raised).toHaveLength(1);
    clock.advanceBy(1);
    expect(alerter.raised.map((a) => [a.code, a.level])).toEqual([
      ['RECONNECTS_REPEATED', 'warn'],
      ['RECONNECTS_SETTLED', 'info'],
    ]);
  });

  it('raises TOTP_LOCKOUT once while token generation stays stopped, and TOTP_UNBLOCKED when it clears', () => {
    const clock = new VirtualClock(0);
    const alerter = new Alerter({ clock, log: silentLogger() });
    const blocked = { reason: 'wrong_totp', message: 'token generation stopped: the TOTP code was rejected' };
    alerter.tokenState(undefined);
    alerter.tokenState(blocked);
    alerter.tokenState(blocked);
    alerter.tokenState(undefined);
    alerter.tokenState(undefined);
    expect(alerter.raised.map((a) => [a.code, a.level])).toEqual([
      ['TOTP_LOCKOUT', 'critical'],
      ['TOTP_UNBLOCKED', 'info'],
    ]);
    expect(alerter.raised[0]!.context).toEqual({ reason: 'wrong_totp' });
  });

  it('stays quiet about a short disconnect', () => {
    const clock = new VirtualClock(0);
    const alerter = new Alerter({ clock, log: silentLogger(), disconnectAlertMs: 10_000 });
    alerter.observe({ type: 'lifecycle', ts: 0, phase: 'disconnected', source: 'ws:orders' });
    clock.advanceBy(9_999);
    alerter.observe({ type: 'lifecycle', ts: clock.now(), phase: 'connected', source: 'ws:orders' });
    clock.advanceBy(60_000);
    expect(alerter.raised).toHaveLength(0);
  });

  it('raises TRADING_HALTED once when the trading state turns halted, and resolves it on resume', () => {
    const clock = new VirtualClock(0);
    const alerter = new Alerter({ clock, log: silentLogger() });
    alerter.observe({ type: 'trading-state', ts: 0, from: 'active', to: 'halted', reason: 'daily loss' });
    alerter.observe({ type: 'trading-state', ts: 1, from: 'reducing', to: 'halted', reason: 'daily loss' });
    alerter.observe({ type: 'trading-state', ts: 2, from: 'halted', to: 'active', reason: 'operator resume' });
    expect(alerter.raised.map((a) => [a.code, a.level, a.message])).toEqual([
      ['TRADING_HALTED', 'critical', 'trading halted (daily loss)'],
      ['TRADING_RESUMED', 'info', 'trading active again (operator resume)'],
    ]);
  });

  it('raises TRADING_HALTED once on a halt through the real engine, and resolves it on resume', async () => {
    const { engine } = await harness();
    const alerter = new Alerter({ clock: engine.clock, log: silentLogger(), publish: (a) => engine.bus.publish(a) });
    engine.bus.onAny((e) => alerter.observe(e));
    engine.halt('operator');
    engine.halt('operator');
    expect(alerter.raised.map((a) => [a.code, a.level])).toEqual([['TRADING_HALTED', 'critical']]);
    engine.resume();
    engine.resume();
    expect(alerter.raised.map((a) => [a.code, a.level])).toEqual([['TRADING_HALTED', 'critical'], ['TRADING_RESUMED', 'info']]);
    await engine.stop();
  });

  it('posts bus alerts to the webhook with a Slack-style text and no secrets', async () => {
    const h = await hook();
    hooks.push(h);
    const clock = new VirtualClock(1_700_000_000_000);
    const webhook = new WebhookNotifier({ url: h.url, sleep: noSleep });
    const alerter = new Alerter({ clock, log: silentLogger(), webhook });
    const alert: AlertEvent = { type: 'alert', ts: clock.now(), level: 'critical', code: 'KILL_SWITCH', message: 'daily loss limit hit', context: { loss: 500_000, token: 'abcd-secret' } };
    alerter.observe(alert);
    await alerter.stop();
    expect(h.bodies).toHaveLength(1);
    expect(h.bodies[0]).toMatchObject({ text: '[tarang CRITICAL] KILL_SWITCH: daily loss limit hit', code: 'KILL_SWITCH', level: 'critical', source: 'tarang', context: { loss: 500_000, token: '[redacted]' } });
    expect(webhook.stats).toEqual({ sent: 1, failed: 0, dropped: 0, queued: 0 });
  });
});

describe('WebhookNotifier', () => {
  const alert = (code: string): AlertEvent => ({ type: 'alert', ts: 0, level: 'warn', code, message: code });

  it('retries 5xx within its policy and delivers in order', async () => {
    const h = await hook([503, 502]);
    hooks.push(h);
    const delays: number[] = [];
    const w = new WebhookNotifier({ url: h.url, retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000, timeoutMs: 2_000 }, sleep: async (ms) => void delays.push(ms) });
    w.send(alert('A'));
    w.send(alert('B'));
    await w.idle();
    expect(h.bodies.map((b) => b['code'])).toEqual(['A', 'A', 'A', 'B']);
    expect(delays).toEqual([100, 200]);
    expect(w.stats).toMatchObject({ sent: 2, failed: 0 });
  });

  it('gives up after the last attempt, and at once on a 4xx', async () => {
    const h = await hook([500, 500, 404]);
    hooks.push(h);
    const w = new WebhookNotifier({ url: h.url, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 2_000 }, sleep: noSleep });
    w.send(alert('A'));
    w.send(alert('B'));
    await w.idle();
    expect(h.bodies.map((b) => b['code'])).toEqual(['A', 'A', 'B']);
    expect(w.stats).toMatchObject({ sent: 0, failed: 2 });
  });

  it('never blocks the sender and drops the oldest when its queue is full', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const w = new WebhookNotifier({ url: 'http://127.0.0.1:1/x', maxQueue: 2, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 500 }, sleep: () => gate });
    for (const c of ['A', 'B', 'C', 'D']) w.send(alert(c));
    expect(w.stats.dropped).toBeGreaterThanOrEqual(1);
    release();
    await w.idle();
    expect(w.stats.queued).toBe(0);
  });

  it('refuses a non-http URL', () => {
    expect(() => new WebhookNotifier({ url: 'ftp://x' })).toThrow(/alerts.webhook/);
  });
});
