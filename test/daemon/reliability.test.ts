/**
 * Reliability of the paper daemon against the simulator's faults, over real HTTP/WebSocket. Each
 * test asserts that nothing is lost or doubled: one broker order per tag, the daemon's state of
 * every order equal to the broker's, and its position equal to the broker's fills.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendControl } from '../../src/adapters/ops/ctl-client.js';
import { readRecording } from '../../src/daemon/recorder.js';
import { engineOf, seenOrders, startPaperHarness, until, compareWithBroker, type PaperHarness } from './support/paper-harness.js';

let h: PaperHarness;
beforeEach(async () => {
  h = await startPaperHarness({ speed: 10 });
});
afterEach(async () => {
  await h.close();
});

async function settled(d: Awaited<ReturnType<PaperHarness['daemon']>>, n: number): Promise<ReturnType<typeof compareWithBroker>> {
  await until(() => seenOrders(d).count >= n && seenOrders(d).open === 0, `${n} orders placed and done`);
  let last: ReturnType<typeof compareWithBroker> | undefined;
  // The broker's records and the daemon's may be a moment apart: compare until they agree.
  await until(
    async () => {
      last = compareWithBroker(d, await h.brokerView(), h.instrument);
      return last.problems.length === 0 && last.tags.length >= n;
    },
    'the daemon and the broker to agree',
  ).catch(() => undefined);
  return last!;
}

describe('paper daemon reliability (simulator faults)', () => {
  it('places, fills and tracks every order exactly once on a clean day, and records the session', async () => {
    const d = await h.daemon({ n: 4 });
    const r = await settled(d, 4);
    expect(r.problems).toEqual([]);
    expect(r.tags).toHaveLength(4);
    expect(d.health.report()).toMatchObject({ reconciled: true, status: 'ok' });
    const dir = d.recordingDir!;
    await d.stop('test done', 'none');
    const seen = { tick: 0, order: 0, fill: 0 };
    let lastTs = 0;
    let ordered = true;
    for await (const e of readRecording(dir)) {
      if (e.type in seen) seen[e.type as keyof typeof seen]++;
      if (e.type === 'tick') {
        ordered &&= e.ts >= lastTs;
        lastTs = e.ts;
      }
    }
    expect(seen.tick).toBeGreaterThan(0);
    expect(seen.fill).toBe(4);
    expect(seen.order).toBeGreaterThanOrEqual(8);
    expect(ordered).toBe(true);
  });

  it('obeys tarang ctl halt and resume over the control API', async () => {
    const d = await h.daemon({ n: 50 });
    const url = `http://127.0.0.1:${d.port}`;
    const token = 'test-token-0123456789abcdef';
    await until(() => seenOrders(d).filled >= 1, 'a first fill');
    expect(await sendControl({ url, token, command: 'halt', reason: 'test' })).toMatchObject({ tradingState: 'halted' });
    await until(() => seenOrders(d).open === 0, 'the working order to finish');
    const atHalt = seenOrders(d).count;
    // Five seconds of market (500 ms of wall time at the old x10 pace), ticks arriving all along.
    const ticks = d.stats.snapshot().ticks;
    await h.elapse(5_000);
    expect(d.stats.snapshot().ticks).toBeGreaterThan(ticks);
    expect(seenOrders(d).count).toBe(atHalt);
    expect(d.stats.snapshot().denials).toBeGreaterThan(0);
    expect(d.health.report()).toMatchObject({ status: 'degraded', tradingState: 'halted' });
    expect(await sendControl({ url, token, command: 'resume' })).toMatchObject({ tradingState: 'active' });
    await until(() => seenOrders(d).count >= atHalt + 2, 'orders after the resume');
    await sendControl({ url, token, command: 'halt' });
    const r = await settled(d, seenOrders(d).count);
    expect(r.problems).toEqual([]);
    expect(await sendControl({ url, token, command: 'status' })).toMatchObject({ mode: 'paper', daemon: 'running', reconciled: true, tradingState: 'halted' });
  });

  it('flattens at the configured session end, leaving the broker flat, then runs the daily reconcile', async () => {
    // T0 is 10:00 IST; the session end is a minute of market time later. The bus is watched from
    // the engine's first event, so the session end is seen however long the three buys take.
    const closes: Array<{ detail: string; fillsBefore: number }> = [];
    const daily: string[] = [];
    const fills = new Set<string>();
    const d = await h.daemon({
      n: 3,
      config: { shutdown: { onStop: 'cancel', atSessionEnd: 'flatten', sessionEnd: '10:01', timeoutSeconds: 20 } },
      observe: (e) => {
        if (e.type === 'fill') fills.add(e.fillId);
        if (e.type !== 'lifecycle') return;
        if (e.phase === 'session_close') closes.push({ detail: e.detail ?? '', fillsBefore: fills.size });
        // The daily reconcile also runs once at start; the one that counts follows the session end.
        if (e.phase === 'reconciled' && e.detail?.startsWith('daily:') && closes.length > 0) daily.push(e.detail);
      },
    });
    await until(() => seenOrders(d).filled >= 3, 'three buys filled');
    await until(() => closes.length === 1 && engineOf(d).portfolio.netQty(h.instrument) === 0, 'the session-end flatten');
    // The three buys were done before the session end: the flatten sold them.
    expect(closes[0]).toEqual({ detail: 'flatten', fillsBefore: 3 });
    // Today's orders are still in the broker's book: the reconcile keeps them all.
    await until(() => daily.length === 1, 'the daily reconcile after the session end');
    expect(daily[0]).toMatch(/^daily: journal 0 pruned, \d+ kept; 0 finished orders of earlier days forgotten$/);
    const r = await settled(d, 4);
    expect(r.problems).toEqual([]);
    const v = await h.brokerView();
    expect(v.trades.filter((t) => t.instrument === h.instrument).reduce((n, t) => n + (t.side === 'BUY' ? t.qty : -t.qty), 0)).toBe(0);
  });

  it('loses no order update when the WebSocket drops and stalls during fills', async () => {
    const d = await h.daemon({ n: 6, concurrent: 2 });
    const engine = engineOf(d);
    const drops: string[] = [];
    engine.bus.on('lifecycle', (e) => {
      if (e.phase === 'disconnected') drops.push(e.source);
    });
    await until(() => seenOrders(d).count >= 2, 'first orders');
    await h.faults({ ws_drop: true });
    await until(() => seenOrders(d).count >= 4, 'orders after the drop');
    await h.faults({ ws_stall: true });
    // Three seconds of market with the stream stalled (300 ms of wall time at the old x10 pace).
    await h.elapse(3_000);
    await h.faults({ ws_stall: false });
    const r = await settled(d, 6);
    expect(r.problems).toEqual([]);
    expect(r.tags).toHaveLength(6);
    expect(drops).toContain('venue:paper');
  });

  it('renews a token revoked mid-session and trades on', async () => {
    const d = await h.daemon({ n: 6 });
    await until(() => seenOrders(d).filled >= 2, 'two fills before the revocation');
    await h.control('POST', '/sim/tokens/revoke', {});
    const r = await settled(d, 6);
    expect(r.problems).toEqual([]);
    expect(r.tags).toHaveLength(6);
    const log = await h.requests();
    expect(log.some((e) => e.status === 403)).toBe(true);
    expect(log.some((e) => e.path.startsWith('/generate/token') && e.status === 200)).toBe(true);
    expect(seenOrders(d).filled).toBe(6);
  });

  it('rides out a 5xx burst without doubling or dropping an order', async () => {
    const d = await h.daemon({ n: 6, concurrent: 3 });
    await h.faults({ error_rate: 0.4 });
    await until(() => seenOrders(d).count >= 4, 'orders during the burst');
    await h.clearFaults();
    const r = await settled(d, 6);
    expect(r.problems).toEqual([]);
    expect(r.tags).toHaveLength(6);
    expect((await h.requests()).filter((e) => e.status === 503).length).toBeGreaterThan(0);
  });

  it('reconciles lost order acknowledgements by tag instead of placing again', async () => {
    const d = await h.daemon({ n: 6, concurrent: 2, broker: { timeouts: { connectMs: 2000, requestMs: 1500, writeMs: 500 } } });
    await h.faults({ lost_ack_rate: 0.5, lost_ack_mode: 'timeout' });
    await until(() => seenOrders(d).count >= 3, 'orders with lost acks');
    await h.faults({ lost_ack_mode: '5xx' });
    await until(() => seenOrders(d).count >= 5, 'orders with 5xx acks');
    await h.clearFaults();
    const r = await settled(d, 6);
    expect(r.problems).toEqual([]);
    expect(r.tags).toHaveLength(6);
    const placements = (await h.requests()).filter((e) => e.method === 'POST' && e.path.startsWith('/order') && !e.path.startsWith('/order/'));
    // Never a blind retry: at most one placement call per tag reached the broker.
    expect(placements.length).toBe(6);
    expect(placements.some((e) => e.status >= 500 || e.status === 0)).toBe(true);
  });

  it('survives a 429 storm when it sends faster than the broker allows', async () => {
    // The broker allows 3 order calls a second; the daemon's own limiter is set far above that and
    // buy-n sends 9 at once on its first tick, then one a tick (two a second of market time): the
    // broker refuses 6 of the burst, and the queue behind its Retry-After drains by one a second.
    await h.close();
    h = await startPaperHarness({ speed: 10, rateLimits: { orders: { perSecond: 3 } } });
    const d = await h.daemon({ n: 30, concurrent: 30, burst: 9, broker: { rateLimits: { orders: { perWindow: 200, windowMs: 1000 } } } });
    const r = await settled(d, 30);
    expect(r.problems).toEqual([]);
    expect(r.tags).toHaveLength(30);
    const placements = (await h.requests()).filter((e) => e.method === 'POST' && e.path.startsWith('/order') && !e.path.startsWith('/order/'));
    expect(placements.filter((e) => e.status === 429).length).toBeGreaterThan(0);
    expect(placements.filter((e) => e.status === 200).length).toBe(30);
  });
});
