import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { HealthTracker } from '../../src/daemon/health.js';

describe('HealthTracker', () => {
  it('is down until reconciled, then ok, degraded on a lost price stream and down on a lost order stream', () => {
    const clock = new VirtualClock(1_000);
    const h = new HealthTracker({ clock });
    expect(h.report()).toMatchObject({ status: 'down', reconciled: false, lastTickAgeMs: null });
    h.observe({ type: 'lifecycle', ts: 1_000, phase: 'connected', source: 'ws:prices' });
    h.observe({ type: 'lifecycle', ts: 1_000, phase: 'connected', source: 'ws:orders' });
    h.observe({ type: 'lifecycle', ts: 1_000, phase: 'reconciled', source: 'engine' });
    h.observe({ type: 'tick', ts: 1_000, instrument: 'NSE_1', ltp: 1 });
    clock.advanceBy(500);
    expect(h.report()).toEqual({ status: 'ok', tradingState: 'active', reconciled: true, connections: { 'ws:prices': { connected: true }, 'ws:orders': { connected: true } }, lastTickAgeMs: 500 });
    h.observe({ type: 'lifecycle', ts: clock.now(), phase: 'disconnected', source: 'ws:prices' });
    clock.advanceBy(2_000);
    expect(h.report()).toMatchObject({ status: 'degraded', connections: { 'ws:prices': { connected: false, downSinceMs: 2_000 } } });
    h.observe({ type: 'lifecycle', ts: clock.now(), phase: 'disconnected', source: 'ws:orders' });
    expect(h.report().status).toBe('down');
  });

  it('is down while the order stream is stalled, through its reconnect, until frames flow again; a stalled price shard degrades', () => {
    const clock = new VirtualClock(0);
    const h = new HealthTracker({ clock, critical: (s) => s.startsWith('venue:') || s === 'ws:orders' });
    h.markReconciled();
    h.observe({ type: 'lifecycle', ts: 0, phase: 'connected', source: 'venue:paper', cause: 'connected' });
    expect(h.report().status).toBe('ok');
    h.observe({ type: 'lifecycle', ts: 0, phase: 'disconnected', source: 'venue:paper', cause: 'stalled' });
    h.observe({ type: 'lifecycle', ts: 500, phase: 'connected', source: 'venue:paper', cause: 'reconnected' });
    expect(h.report()).toMatchObject({ status: 'down', connections: { 'venue:paper': { connected: true, stalled: true } } });
    h.observe({ type: 'lifecycle', ts: 900, phase: 'connected', source: 'venue:paper', cause: 'flowing' });
    expect(h.report()).toMatchObject({ status: 'ok', connections: { 'venue:paper': { connected: true } } });
    h.observe({ type: 'lifecycle', ts: 900, phase: 'disconnected', source: 'ws:prices#1', cause: 'stalled' });
    h.observe({ type: 'lifecycle', ts: 900, phase: 'connected', source: 'ws:prices#1', cause: 'reconnected' });
    expect(h.report().status).toBe('degraded');
  });

  it('shows each stream with its last frame age; a stalled order stream makes it down, a stalled price shard degraded', () => {
    const clock = new VirtualClock(10_000);
    const streams = [
      { name: 'ws:prices#0', connected: true, stalled: false, lastFrameAt: 9_000 as number | undefined, drops: 0, stalls: 0 },
      { name: 'ws:orders', connected: true, stalled: false, lastFrameAt: undefined as number | undefined, drops: 0, stalls: 0 },
    ];
    const h = new HealthTracker({ clock, critical: (s) => s === 'ws:orders', streams: () => streams, storeState: () => 'ready' });
    h.markReconciled();
    expect(h.report()).toMatchObject({
      status: 'ok',
      store: 'ready',
      streams: { 'ws:prices#0': { connected: true, stalled: false, lastFrameAgeMs: 1_000 }, 'ws:orders': { connected: true, stalled: false, lastFrameAgeMs: null } },
    });
    streams[0] = { ...streams[0]!, stalled: true };
    expect(h.report().status).toBe('degraded');
    streams[1] = { ...streams[1]!, stalled: true, lastFrameAt: 2_000 };
    expect(h.report()).toMatchObject({ status: 'down', streams: { 'ws:orders': { stalled: true, lastFrameAgeMs: 8_000 } } });
  });

  it('is degraded when ticks go stale in market hours or trading is halted', () => {
    const clock = new VirtualClock(0);
    let open = true;
    const h = new HealthTracker({ clock, staleTickMs: 10_000, marketOpen: () => open });
    h.markReconciled();
    h.observe({ type: 'tick', ts: 0, instrument: 'NSE_1', ltp: 1 });
    clock.advanceBy(10_001);
    expect(h.report().status).toBe('degraded');
    open = false;
    expect(h.report().status).toBe('ok');
    h.observe({ type: 'trading-state', ts: 0, from: 'active', to: 'halted', reason: 'kill switch' });
    expect(h.report()).toMatchObject({ status: 'degraded', tradingState: 'halted' });
  });
});
