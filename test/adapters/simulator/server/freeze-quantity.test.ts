/**
 * Freeze limits of BSE index options (BFO) and NSE stock futures over real HTTP on loopback
 * (paper), as the NIFTY case in test/adapters/execution/auto-slice.test.ts: the simulator refuses
 * an order above the limit in force with the broker's words, risk denies the same intent first in
 * the same words, and with `execution.autoSlice` the order goes as slices. The stock limits come
 * from a hand-written qtyfreeze file stored as the user's import would (illustrative numbers).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../../src/adapters/simulator/index.js';
import { createBroker } from '../../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../../src/adapters/broker/config.js';
import { RateLimiters } from '../../../../src/adapters/broker/rate-limiter.js';
import { BrokerVenue } from '../../../../src/adapters/broker/venue.js';
import { Engine } from '../../../../src/engine/engine.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import type { DeniedEvent } from '../../../../src/core/events.js';
import { InstrumentTable, type Instrument } from '../../../../src/core/instruments.js';
import { parseInstrumentMaster } from '../../../../src/core/instrument-master.js';
import { silentLogger } from '../../../../src/core/log.js';
import { istDate, istDateTime } from '../../../../src/core/time.js';
import type { Strategy, StrategyContext } from '../../../../src/strategies/strategy.js';
import { freezeLimitMessage, freezeQuantity } from '../../../../src/risk/rules/freeze-quantity.js';
import type { ExecutionConfigInput } from '../../../../src/adapters/execution/config.js';
import { until } from '../../../support/wait.js';
import { stockFreezeHome, type StockFreezeHome } from '../../../support/stock-freeze.js';

const T0 = istDateTime('2026-11-20', '10:00');
let home: StockFreezeHome;
let cleanup: Array<() => Promise<void>> = [];
beforeAll(() => {
  home = stockFreezeHome();
  // Illustrative: RELIANCE 3000 from 2026-11-02.
  home.store('2026-11-02');
});
afterAll(() => home.close());
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

async function paper(pick: (master: readonly Instrument[]) => Instrument, execution: ExecutionConfigInput = {}) {
  const clock = new VirtualClock(T0);
  const sim: RunningSimulator = await startSimulator({
    clock, logger: silentLogger(),
    venue: { nseEquities: 20, bseEquities: 5, tickIntervals: { cash: 600_000, futures: 600_000, options: 3_600_000 }, pumpMs: 60_000, account: { openingBalance: 10_000_000_000 } },
  });
  cleanup.push(() => sim.close());
  const config = parseBrokerConfig({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, accessToken: sim.credentials.access_token, timeouts: { connectMs: 2000, requestMs: 5000, writeMs: 2000 } });
  const broker = createBroker(config, { clock, logger: silentLogger(), limiters: new RateLimiters(clock, config.rateLimits), marketOpen: () => true });
  cleanup.push(() => broker.close());
  const venue = new BrokerVenue(broker);
  // The contract as the broker's F&O instrument master lists it.
  const instrument = pick(parseInstrumentMaster(await broker.client.instrumentMaster('fno'), 'fno').instruments);
  const ctxRef: { ctx?: StrategyContext } = {};
  const strategy: Strategy = { instruments: [instrument.id], onStart: (ctx) => void (ctxRef.ctx = ctx) };
  const engine = await Engine.create({ clock, venue, instruments: new InstrumentTable([instrument]), strategies: [{ id: 'big', strategy }], execution, log: silentLogger() });
  const denied: DeniedEvent[] = [];
  engine.bus.on('denied', (d) => denied.push(d));
  await engine.start();
  cleanup.push(() => engine.stop());
  return { sim, instrument, engine, venue, denied, ctx: () => ctxRef.ctx! };
}

const nearest = (list: readonly Instrument[]): Instrument => {
  const expiry = list.map((i) => i.expiry!).sort()[0]!;
  return list.find((i) => i.expiry === expiry)!;
};
const sensexCall = (m: readonly Instrument[]) => nearest(m.filter((i) => i.kind === 'OPTIDX' && i.symbol === 'SENSEX' && i.optionType === 'CE'));
const relianceFuture = (m: readonly Instrument[]) => nearest(m.filter((i) => i.kind === 'FUTSTK' && i.symbol === 'RELIANCE'));

describe('freeze limits of BSE index options and NSE stock futures (simulator over HTTP)', () => {
  it('a SENSEX option (BFO, lot 20) above 1000 units: the simulator refuses it with the broker\'s words; risk denies it first in the same words', async () => {
    const p = await paper(sensexCall);
    expect(p.instrument).toMatchObject({ exchange: 'BSE', segment: 'FNO', symbol: 'SENSEX', lotSize: 20 });
    expect(freezeQuantity(p.instrument, istDate(T0))).toBe(1000);
    const answer = await p.venue.place({ tag: 'raw-1', instrument: p.instrument.id, side: 'BUY', qty: 1020, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN', isAmo: false });
    expect(answer).toMatchObject({ status: 'rejected' });
    expect(answer.status === 'rejected' && answer.reason).toContain(freezeLimitMessage(p.instrument, 1020, 1000));
    const tag = p.ctx().buy(p.instrument.id, 1020, { product: 'MARGIN' });
    await until(() => p.denied.length > 0, 'the denial');
    expect(p.denied[0]).toMatchObject({ code: 'FREEZE_QTY', reason: freezeLimitMessage(p.instrument, 1020, 1000) });
    expect((await p.venue.orderBook()).some((o) => o.tag === tag)).toBe(false);
  });

  it('a RELIANCE future above the imported qtyfreeze limit: refused by the simulator, denied by risk, in the same words', async () => {
    const p = await paper(relianceFuture);
    expect(p.instrument).toMatchObject({ exchange: 'NSE', kind: 'FUTSTK', lotSize: 500 });
    expect(freezeQuantity(p.instrument, istDate(T0))).toBe(3000);
    const answer = await p.venue.place({ tag: 'raw-2', instrument: p.instrument.id, side: 'BUY', qty: 3500, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN', isAmo: false });
    expect(answer.status === 'rejected' && answer.reason).toContain(freezeLimitMessage(p.instrument, 3500, 3000));
    // Within the limit the simulator takes it.
    const within = await p.venue.place({ tag: 'raw-3', instrument: p.instrument.id, side: 'BUY', qty: 3000, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN', isAmo: false });
    expect(within.status).not.toBe('rejected');
    p.ctx().buy(p.instrument.id, 3500, { product: 'MARGIN' });
    await until(() => p.denied.length > 0, 'the denial');
    expect(p.denied[0]).toMatchObject({ code: 'FREEZE_QTY', reason: freezeLimitMessage(p.instrument, 3500, 3000) });
  });

  it('with execution.autoSlice the RELIANCE order of 7 lots becomes two broker orders (4 and 3 lots) and one filled intent', async () => {
    const p = await paper(relianceFuture, { autoSlice: true });
    expect(p.sim.venue.setPrice(p.instrument.id, 1300_00)).toMatchObject({ ok: true });
    const tag = p.ctx().buy(p.instrument.id, 3500, { product: 'MARGIN', limitPrice: 1301_00 });
    await until(() => p.engine.orders.get(tag)?.status === 'FILLED' && !p.engine.orders.get(tag)?.settling, 'the sliced order to fill');
    expect(p.engine.orders.get(tag)).toMatchObject({ status: 'FILLED', filledQty: 3500, slices: 2 });
    const mine = (await p.venue.orderBook()).filter((o) => o.tag!.startsWith(`${tag}.`));
    expect(mine.map((o) => [o.tag, o.qty]).sort()).toEqual([[`${tag}.s1`, 2000], [`${tag}.s2`, 1500]]);
    expect(p.denied).toEqual([]);
  });
});
