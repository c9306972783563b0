/**
 * Session end means closed (issue 14, D): a flatten at the session end leaves the account flat and
 * keeps it so (trading reducing until the next session or `tarang ctl resume`), against the
 * simulator over real HTTP/WebSocket. The close survives a restart within the night and ends for
 * a daemon started once the next session has opened.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendControl } from '../../src/adapters/ops/ctl-client.js';
import { MemoryStore } from '../../src/core/store.js';
import type { Event } from '../../src/core/events.js';
import { engineOf, seenOrders, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

let h: PaperHarness;
beforeEach(async () => {
  h = await startPaperHarness({ speed: 10 });
});
afterEach(async () => {
  await h.close();
});

const TOKEN = 'test-token-0123456789abcdef';

async function brokerNet(): Promise<number> {
  const v = await h.brokerView();
  return v.trades.filter((t) => t.instrument === h.instrument).reduce((n, t) => n + (t.side === 'BUY' ? t.qty : -t.qty), 0);
}

describe('session-end flatten', () => {
  it('leaves the account flat at the close: strategies cannot buy back in until tarang ctl resume', async () => {
    const events: Event[] = [];
    const store = new MemoryStore();
    const d = await h.daemon({
      n: 1000,
      store,
      config: { shutdown: { onStop: 'none', atSessionEnd: 'flatten', sessionEnd: '10:01', timeoutSeconds: 20 } },
      observe: (e) => void events.push(e),
    });
    const engine = engineOf(d);
    await until(() => events.some((e) => e.type === 'lifecycle' && e.phase === 'session_close'), 'the session end', 60_000);
    await until(() => engine.portfolio.netQty(h.instrument) === 0 && engine.orders.openCount() === 0, 'the flatten');
    expect(engine.tradingState()).toBe('reducing');
    const atClose = seenOrders(d).count;
    // A minute of market after the flatten: buy-n keeps asking, nothing goes out, the account stays flat.
    await h.elapse(60_000);
    expect(seenOrders(d).count).toBe(atClose);
    expect(events.some((e) => e.type === 'denied' && e.code === 'TRADING_STATE')).toBe(true);
    expect(await brokerNet()).toBe(0);
    expect(await store.get('risk', 'closedUntil')).toBeGreaterThan(h.clock.now());
    // The operator's resume ends the close.
    const url = `http://127.0.0.1:${d.port}`;
    expect(await sendControl({ url, token: TOKEN, command: 'resume' })).toMatchObject({ tradingState: 'active' });
    await until(() => seenOrders(d).count > atClose, 'orders after the resume');
    expect(await store.get('risk', 'closedUntil')).toBeUndefined();
  }, 120_000);

  it('tarang ctl flatten closes trading too; a restart in the night stays closed, one in the next session opens', async () => {
    const store = new MemoryStore();
    const d = await h.daemon({ n: 40, store });
    const url = `http://127.0.0.1:${d.port}`;
    await until(() => seenOrders(d).filled >= 2, 'two buys filled');
    expect(await sendControl({ url, token: TOKEN, command: 'flatten' })).toMatchObject({ tradingState: 'reducing' });
    const engine = engineOf(d);
    await until(() => engine.portfolio.netQty(h.instrument) === 0, 'flat');
    await d.stop('restart', 'none');
    // Restarted the same night: still closed.
    const again = await h.daemon({ n: 40, store });
    expect(engineOf(again).tradingState()).toBe('reducing');
    await again.stop('restart', 'none');
    // The next session has opened by the time it starts (its close time has passed): trading opens.
    await store.set('risk', 'closedUntil', h.clock.now() - 1);
    const next = await h.daemon({ n: 40, store });
    expect(engineOf(next).tradingState()).toBe('active');
    expect(await store.get('risk', 'closedUntil')).toBeUndefined();
  }, 120_000);
});
