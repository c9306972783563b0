/**
 * Freeze quantity and auto-slicing over real HTTP and WebSocket on loopback (paper): the simulator
 * refuses a NIFTY option order above the freeze quantity with the broker's words; risk denies the
 * same intent first with the same words; with `execution.autoSlice` an order of three times the
 * largest slice becomes three broker orders (tagged `<tag>.s1..s3`) and one filled intent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/adapters/simulator/index.js';
import { createBroker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import { BrokerVenue } from '../../../src/adapters/broker/venue.js';
import { Engine } from '../../../src/engine/engine.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { DeniedEvent, LostAnswerEvent, OrderSnapshot } from '../../../src/core/events.js';
import { InstrumentTable, type Instrument } from '../../../src/core/instruments.js';
import { parseInstrumentMaster } from '../../../src/core/instrument-master.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDate, istDateTime } from '../../../src/core/time.js';
import type { Strategy, StrategyContext } from '../../../src/strategies/strategy.js';
import { freezeLimitMessage, freezeQuantity, largestSlice } from '../../../src/risk/rules/freeze-quantity.js';
import type { ExecutionConfigInput } from '../../../src/adapters/execution/config.js';
import { until } from '../../support/wait.js';
import type { CheckName } from '../../../src/risk/config.js';

const T0 = istDateTime('2026-11-20', '10:00');
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

async function paper(execution: ExecutionConfigInput = {}, o: { openingBalance?: number; checks?: CheckName[] } = {}) {
  const clock = new VirtualClock(T0);
  const sim: RunningSimulator = await startSimulator({
    clock, logger: silentLogger(),
    venue: { nseEquities: 20, bseEquities: 5, tickIntervals: { cash: 600_000, futures: 600_000, options: 3_600_000 }, pumpMs: 60_000, account: { openingBalance: o.openingBalance ?? 10_000_000_000 } },
  });
  cleanup.push(() => sim.close());
  const config = parseBrokerConfig({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, accessToken: sim.credentials.access_token, timeouts: { connectMs: 2000, requestMs: 5000, writeMs: 2000 } });
  const limiters = new RateLimiters(clock, config.rateLimits);
  const broker = createBroker(config, { clock, logger: silentLogger(), limiters, marketOpen: () => true });
  cleanup.push(() => broker.close());
  const venue = new BrokerVenue(broker);
  // A NIFTY call of the nearest expiry, from the broker's F&O instrument master.
  const master = parseInstrumentMaster(await broker.client.instrumentMaster('fno'), 'fno').instruments;
  const calls = master.filter((i) => i.kind === 'OPTIDX' && i.symbol === 'NIFTY' && i.optionType === 'CE');
  const expiry = calls.map((i) => i.expiry!).sort()[0]!;
  const option: Instrument = calls.find((i) => i.expiry === expiry)!;
  const seen: OrderSnapshot[] = [];
  const ctxRef: { ctx?: StrategyContext } = {};
  const strategy: Strategy = {
    instruments: [option.id],
    onStart: (ctx) => {
      ctxRef.ctx = ctx;
    },
    onOrder: (o) => {
      seen.push(o);
    },
  };
  const engine = await Engine.create({ clock, venue, instruments: new InstrumentTable([option]), strategies: [{ id: 'big', strategy }], execution, ...(o.checks ? { risk: { checks: o.checks } } : {}), log: silentLogger() });
  const denied: DeniedEvent[] = [];
  engine.bus.on('denied', (d) => denied.push(d));
  await engine.start();
  cleanup.push(() => engine.stop());
  return { sim, clock, option, engine, venue, seen, denied, limiters, ctx: () => ctxRef.ctx! };
}

describe('freeze quantity in paper trading (simulator over HTTP)', () => {
  it('the simulator refuses an option order above the freeze quantity with the broker\'s words; risk denies it first with the same words', async () => {
    const p = await paper();
    const freeze = freezeQuantity(p.option, istDate(T0))!;
    expect(freeze).toBe(1800);
    const qty = largestSlice(freeze, p.option.lotSize) + p.option.lotSize;
    // Straight to the broker: the order is refused and recorded as failed.
    const answer = await p.venue.place({ tag: 'raw-1', instrument: p.option.id, side: 'BUY', qty, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN', isAmo: false });
    expect(answer).toMatchObject({ status: 'rejected' });
    expect(answer.status === 'rejected' && answer.reason).toContain(freezeLimitMessage(p.option, qty, freeze));
    // Through the engine: risk denies it before it leaves, in the same words.
    const tag = p.ctx().buy(p.option.id, qty, { product: 'MARGIN' });
    await until(() => p.denied.length > 0, 'the denial');
    expect(p.denied[0]).toMatchObject({ code: 'FREEZE_QTY', reason: freezeLimitMessage(p.option, qty, freeze) });
    expect((await p.venue.orderBook()).some((o) => o.tag === tag)).toBe(false);
  });

  it('with execution.autoSlice an order of three slices becomes three broker orders and one filled intent', async () => {
    const p = await paper({ autoSlice: true });
    const slice = largestSlice(1800, p.option.lotSize);
    // Rs 100 now; a LIMIT buy at Rs 101 takes the book.
    expect(p.sim.venue.setPrice(p.option.id, 100_00)).toMatchObject({ ok: true });
    const tag = p.ctx().buy(p.option.id, 3 * slice, { product: 'MARGIN', limitPrice: 101_00 });
    await until(() => p.engine.orders.get(tag)?.status === 'FILLED' && !p.engine.orders.get(tag)?.settling, 'the sliced order to fill and its fills to be booked');
    const order = p.engine.orders.get(tag)!;
    expect(order).toMatchObject({ status: 'FILLED', qty: 3 * slice, filledQty: 3 * slice, slices: 3 });
    const book = await p.venue.orderBook();
    const mine = book.filter((o) => o.tag!.startsWith(`${tag}.`));
    expect(mine.map((o) => o.tag).sort()).toEqual([`${tag}.s1`, `${tag}.s2`, `${tag}.s3`]);
    expect(mine.every((o) => o.qty === slice && o.status === 'FILLED')).toBe(true);
    // Each slice's fills are booked once: the position is the whole order.
    expect(p.engine.portfolio.netQty(p.option.id)).toBe(3 * slice);
    expect(order.filledValue).toBe(mine.reduce((a, o) => a + p.engine.orders.getExact(o.tag!)!.filledValue, 0));
    // The strategy heard of its one order only, ending FILLED.
    expect(new Set(p.seen.map((o) => o.tag))).toEqual(new Set([tag]));
    expect(p.seen.at(-1)).toMatchObject({ status: 'FILLED', filledQty: 3 * slice });
    expect(p.denied).toEqual([]);
  });

  it('a slice the broker refuses (funds) is reported, the others fill, and the intent ends with what filled', async () => {
    // Risk's funds estimate would deny the whole order; without it the broker refuses the slice it cannot fund.
    const p = await paper({ autoSlice: true }, { openingBalance: 400_000_00, checks: ['freezeQty', 'lotSize'] });
    const slice = largestSlice(1800, p.option.lotSize);
    expect(p.sim.venue.setPrice(p.option.id, 100_00)).toMatchObject({ ok: true });
    const tag = p.ctx().buy(p.option.id, 3 * slice, { product: 'MARGIN', limitPrice: 101_00 });
    await until(() => p.engine.orders.get(tag)?.status === 'CANCELLED' && !p.engine.orders.get(tag)?.settling, 'the sliced order to end');
    const order = p.engine.orders.get(tag)!;
    expect(order.filledQty).toBe(2 * slice);
    expect(order.reason).toMatch(new RegExp(`^${2 * slice} of ${3 * slice} filled in 3 slices; slice 3/3 \\(${tag}\\.s3\\) rejected: .*(funds|margin)`, 'i'));
    expect(p.denied.filter((d) => d.code === 'VENUE_REJECTED').map((d) => d.intent.id)).toEqual([`${tag}.s3`]);
    expect(p.engine.portfolio.netQty(p.option.id)).toBe(2 * slice);
    expect(p.engine.orders.openCount()).toBe(0);
    // Nothing was sent twice: the broker's book has each slice once.
    const book = await p.venue.orderBook();
    expect(book.filter((o) => o.tag!.startsWith(`${tag}.`)).map((o) => o.tag).sort()).toEqual([`${tag}.s1`, `${tag}.s2`, `${tag}.s3`]);
  });

  it('keeps to the retail-algo order rate across slices: the eleventh order of a second on NSE F&O waits for the next second', async () => {
    const p = await paper({ autoSlice: true });
    const slice = largestSlice(1800, p.option.lotSize);
    expect(p.sim.venue.setPrice(p.option.id, 100_00)).toMatchObject({ ok: true });
    const first = p.ctx().buy(p.option.id, p.option.lotSize, { product: 'MARGIN', limitPrice: 101_00 });
    await until(() => p.engine.orders.get(first)?.status === 'FILLED' && !p.engine.orders.get(first)?.settling && p.engine.portfolio.netQty(p.option.id) > 0, 'the first order filled and booked');
    // Ten slices in the same second as the first order: one more than the threshold of 10.
    const tag = p.ctx().buy(p.option.id, 10 * slice, { product: 'MARGIN', limitPrice: 101_00 });
    await until(() => (p.limiters.segmentStats()['NSE FNO']?.queued ?? 0) > 0, 'a slice queued by the per-segment limiter');
    expect(p.engine.orders.get(tag)?.status).not.toBe('FILLED');
    p.clock.advanceBy(1000);
    await until(() => p.engine.orders.get(tag)?.status === 'FILLED' && !p.engine.orders.get(tag)?.settling, 'all ten slices filled');
    expect(p.engine.orders.get(tag)).toMatchObject({ filledQty: 10 * slice, slices: 10 });
    // The broker never had to refuse one: no 429 in its request log.
    const log = await fetch(`${p.sim.baseUrl}/sim/requests?limit=1000`, { headers: { 'x-sim-admin': p.sim.credentials.admin_key } });
    const entries = ((await log.json()) as { data: Array<{ path: string; status: number }> }).data;
    expect(entries.filter((e) => e.path.startsWith('/order')).length).toBeGreaterThanOrEqual(11);
    expect(entries.some((e) => e.status === 429)).toBe(false);
    expect(p.denied).toEqual([]);
  });

  it('a slice whose answer is lost is found by its tag in the order book, never placed again', async () => {
    const p = await paper({ autoSlice: true });
    const slice = largestSlice(1800, p.option.lotSize);
    expect(p.sim.venue.setPrice(p.option.id, 100_00)).toMatchObject({ ok: true });
    // Every order write is carried out and its answer lost (a 5xx): the engine must not retry.
    const faults = await fetch(`${p.sim.baseUrl}/sim/faults`, { method: 'POST', headers: { 'x-sim-admin': p.sim.credentials.admin_key, 'content-type': 'application/json' }, body: JSON.stringify({ lost_ack_rate: 1, lost_ack_mode: '5xx' }) });
    expect(faults.status).toBeLessThan(300);
    const verdicts: LostAnswerEvent[] = [];
    p.engine.bus.on('lost-answer', (e) => void verdicts.push(e));
    const tag = p.ctx().buy(p.option.id, 3 * slice, { product: 'MARGIN', limitPrice: 101_00 });
    // The lost-answer owner looks the tags up after its delays of clock time, and the broker's
    // rate limits refill on it: move the clock on while waiting and while reading the book.
    const drive = setInterval(() => p.clock.advanceBy(250), 20);
    let book: Awaited<ReturnType<typeof p.venue.orderBook>>;
    try {
      await until(() => p.engine.orders.get(tag)?.status === 'FILLED' && !p.engine.orders.get(tag)?.settling, 'the sliced order to fill through lost answers');
      await until(() => verdicts.length === 3, 'a verdict on each slice\'s lost answer');
      book = await p.venue.orderBook();
    } finally {
      clearInterval(drive);
    }
    expect(verdicts.map((v) => [v.tag, v.verdict]).sort()).toEqual([[`${tag}.s1`, 'done'], [`${tag}.s2`, 'done'], [`${tag}.s3`, 'done']]);
    expect(book.filter((o) => o.tag!.startsWith(`${tag}.`)).map((o) => o.tag).sort()).toEqual([`${tag}.s1`, `${tag}.s2`, `${tag}.s3`]);
    expect(p.engine.portfolio.netQty(p.option.id)).toBe(3 * slice);
    expect(p.engine.orders.get(tag)).toMatchObject({ filledQty: 3 * slice, slices: 3 });
    // Each slice went out once and its answer was lost.
    const log = await fetch(`${p.sim.baseUrl}/sim/requests?limit=1000`, { headers: { 'x-sim-admin': p.sim.credentials.admin_key } });
    const writes = ((await log.json()) as { data: Array<{ method: string; path: string; status: number }> }).data.filter((e) => e.method === 'POST' && e.path === '/order');
    expect(writes.map((e) => e.status)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(writes.every((e) => e.status >= 500)).toBe(true);
  });
});
