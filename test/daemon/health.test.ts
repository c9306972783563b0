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
