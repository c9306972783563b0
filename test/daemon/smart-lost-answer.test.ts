/**
 * A smart-order modify or cancel whose answer is lost (the simulator carries the write out and then
 * drops its acknowledgement) is settled from the order book, like placements: the engine ends with
 * what the broker did, and the write reaches the broker exactly once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBroker } from '../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../src/adapters/broker/config.js';
import { RateLimiters } from '../../src/adapters/broker/rate-limiter.js';
import { BrokerVenue } from '../../src/adapters/broker/venue.js';
import { Engine } from '../../src/engine/engine.js';
import type { Event } from '../../src/core/events.js';
import { InstrumentTable } from '../../src/core/instruments.js';
import { silentLogger } from '../../src/core/log.js';
import { MemoryStore } from '../../src/core/store.js';
import type { StrategyContext } from '../../src/strategies/strategy.js';
import { startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

let h: PaperHarness;
let stop: Array<() => Promise<void>> = [];
beforeEach(async () => {
  h = await startPaperHarness({ speed: 10 });
});
afterEach(async () => {
  for (const s of stop.reverse()) await s().catch(() => undefined);
  stop = [];
  await h.close();
});

async function engineWithSmartOrder(): Promise<{ engine: Engine; ctx: StrategyContext; tag: string; events: Event[]; entry: number }> {
  const cr = h.sim.credentials;
  const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, accessToken: cr.access_token, timeouts: { connectMs: 2000, requestMs: 3000, writeMs: 1000 } });
  const broker = createBroker(config, { clock: h.clock, logger: silentLogger(), limiters: new RateLimiters(h.clock, config.rateLimits), marketOpen: () => true });
  stop.push(() => broker.close());
  const inst = h.sim.venue.instrument(h.instrument)!;
  const holder: { ctx?: StrategyContext } = {};
  const engine = await Engine.create({
    clock: h.clock, venue: new BrokerVenue(broker), store: new MemoryStore(), instruments: new InstrumentTable([inst]), log: silentLogger(),
    strategies: [{ id: 's1', strategy: { instruments: [h.instrument], onStart: (ctx) => void (holder.ctx = ctx) } }],
  });
  const events: Event[] = [];
  engine.bus.onAny((e) => events.push(e));
  await engine.start();
  stop.push(() => engine.stop());
  const ltp = h.sim.venue.lastTick(h.instrument)?.ltp ?? 1000_00;
  engine.publishTick({ type: 'tick', ts: h.clock.now(), instrument: h.instrument, ltp });
  // A BUY entry below the market: it waits, and its legs stay dormant around it.
  const tick = inst.tickSize;
  const entry = Math.round((ltp * 0.98) / tick) * tick;
  const tag = holder.ctx!.submit({
    kind: 'smart', instrument: h.instrument, side: 'BUY', qty: 1, entryType: 'LIMIT', limitPrice: entry,
    stopLoss: { triggerPrice: entry - 20 * tick }, target: { triggerPrice: entry + 20 * tick }, validity: 'DAY', product: 'INTRADAY',
  });
  await until(() => [tag, `${tag}.sl`, `${tag}.tg`].every((t) => engine.orders.get(t)?.orderId !== undefined), 'the smart order and its legs acknowledged', 10_000);
  return { engine, ctx: holder.ctx!, tag, events, entry };
}

const posts = async (path: string): Promise<Array<{ status: number }>> => (await h.requests()).filter((e) => e.method === 'POST' && e.path === path);

describe('smart-order writes whose answer is lost', () => {
  it('a modify of the stop-loss leg carried out but unanswered (stream silent) is found applied in the order book, sent once', async () => {
    const { engine, ctx, tag, events, entry } = await engineWithSmartOrder();
    const tick = h.sim.venue.instrument(h.instrument)!.tickSize;
    // The order stream is silent too: only the order book can tell what happened.
    await h.faults({ lost_ack_rate: 1, lost_ack_mode: '5xx', ws_stall: true });
    const moved = entry - 10 * tick;
    ctx.submit({ kind: 'modify', target: tag, leg: 'stopLoss', triggerPrice: moved });
    await until(() => engine.orders.get(`${tag}.sl`)?.triggerPrice === moved, 'the engine to show the new stop', 10_000);
    await h.clearFaults();
    const modifies = await posts('/smart/order/modify');
    expect(modifies).toHaveLength(1);
    expect(modifies[0]!.status).toBeGreaterThanOrEqual(500);
    expect(h.sim.venue.smartOrder(engine.orders.get(tag)!.orderId!)?.stopLoss?.triggerPrice).toBe(moved);
    expect(events.filter((e) => e.type === 'denied')).toEqual([]);
    expect(engine.orders.get(`${tag}.sl`)?.modifications).toBe(1);
  });

  it('a cancel of the whole smart order carried out but unanswered leaves every part cancelled, sent once', async () => {
    const { engine, ctx, tag, events } = await engineWithSmartOrder();
    await h.faults({ lost_ack_rate: 1, lost_ack_mode: 'timeout' });
    ctx.cancel(tag);
    await until(() => [tag, `${tag}.sl`, `${tag}.tg`].every((t) => engine.orders.get(t)?.status === 'CANCELLED'), 'every part cancelled in the engine', 15_000);
    await h.clearFaults();
    expect(await posts('/smart/order/cancel')).toHaveLength(1);
    expect(engine.orders.openCount()).toBe(0);
    expect(events.filter((e) => e.type === 'denied')).toEqual([]);
  });
});
