/**
 * short-straddle in paper trading: the daemon (engine, risk, execution, broker adapter) against
 * the embedded simulator over loopback HTTP/WebSocket. The daemon does not yet honour the
 * strategy's `optionChains` declaration, so this test plays that part: it discovers expiries and
 * fetches the option chain over HTTP with a broker client of its own (spec 4.5, 4.3) and publishes
 * it on the strategy's `OptionDataFeed`, exactly as the engine is asked to (see src/strategies/options/option-data.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBroker, type Broker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { registerStrategy } from '../../../src/strategies/registry.js';
import { defineStrategy } from '../../../src/strategies/strategy.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDateTime } from '../../../src/core/time.js';
import { shortStraddle, shortStraddleParams, stopTrigger } from '../../../src/strategies/short-straddle/index.js';
import { OptionDataFeed, chainFromWire, withOptionData, type OptionStrategy } from '../../../src/strategies/options/index.js';
import { startPaperDaemon, type PaperDaemon } from '../orb-smart/paper-daemon.js';

const DAY = '2026-11-19';
const NIFTY = 'NIDX_13';
let feed = new OptionDataFeed();

registerStrategy(
  defineStrategy({
    name: 'short-straddle-paper-test',
    description: 'short-straddle with its option data published by the test',
    params: shortStraddleParams,
    create: (p, info) => withOptionData(shortStraddle.create(p, info) as OptionStrategy, feed),
  }),
);

describe('short-straddle paper trading against the simulator', () => {
  let paper: PaperDaemon;
  let broker: Broker;

  beforeAll(async () => {
    feed = new OptionDataFeed();
    paper = await startPaperDaemon({
      day: DAY,
      fno: true,
      strategies: [{ id: 'straddle', strategy: 'short-straddle-paper-test', params: { underlyingInstrument: NIFTY, entryTime: '09:20', exitTime: '09:40', lots: 1 } }],
    });
    const c = paper.sim.credentials;
    broker = createBroker(parseBrokerConfig({ baseUrl: paper.sim.baseUrl, wsUrl: paper.sim.wsUrl, accessToken: c.access_token }), { clock: paper.clock, logger: silentLogger(), marketOpen: () => true });
  }, 60_000);

  afterAll(async () => {
    await broker?.close();
    await paper?.close();
  });

  /** What the engine is asked to do for a declared chain: expiries, then the chain, then publish. */
  async function refreshChain(): Promise<string> {
    const expiries = await broker.client.expiries('NIFTY');
    feed.setExpiries('NIFTY', expiries);
    const data = await broker.client.optionChain({ exchange: 'NSE', segment: 'INDEX', underlyingScrip: '13', expiry: expiries[0]!, strikeCount: 5 });
    feed.publish(
      chainFromWire(data, {
        underlying: 'NIFTY',
        underlyingInstrument: NIFTY,
        ts: paper.clock.now(),
        exchange: 'NSE',
        contract: (id) => paper.sim.venue.instrument(`NFO_${id}`),
      }),
    );
    return expiries[0]!;
  }

  it('sells the ATM call and put of the nearest expiry at 09:20, places a stop per leg, and buys both back at the exit time', async () => {
    await paper.run(4 * 60_000);
    const expiry = await refreshChain();
    await paper.run(60_000);
    await refreshChain();
    await paper.run(2 * 60_000);

    const orders = paper.sim.venue.orders();
    const sells = orders.filter((o) => o.side === 'SELL');
    expect(sells).toHaveLength(2);
    const [ce, pe] = [sells.find((o) => o.tradingSymbol.endsWith('CE'))!, sells.find((o) => o.tradingSymbol.endsWith('PE'))!];
    expect(ce.status).toBe('FILLED');
    expect(pe.status).toBe('FILLED');
    const ceInst = paper.sim.venue.instrument(ce.instrument)!;
    const peInst = paper.sim.venue.instrument(pe.instrument)!;
    expect(ceInst.expiry).toBe(expiry);
    expect(ceInst.strike).toBe(peInst.strike);
    // One lot each, the lot size from the instrument master.
    expect(ce.qty).toBe(ceInst.lotSize);
    expect(pe.qty).toBe(peInst.lotSize);
    // ATM: the strike nearest the index when the chain was taken.
    const spot = paper.sim.venue.quote(NIFTY)!.ltp;
    expect(Math.abs(ceInst.strike! - spot)).toBeLessThanOrEqual(10_000);
    expect(ce.createdAt).toBeGreaterThanOrEqual(istDateTime(DAY, '09:20'));

    const stops = orders.filter((o) => o.side === 'BUY' && o.requestedOrderType === 'STOP_LOSS');
    expect(stops.map((s) => [s.instrument, s.qty, s.triggerPrice]).sort()).toEqual(
      [
        [ce.instrument, ce.qty, stopTrigger(ce.avgPrice, 30, ceInst.tickSize)],
        [pe.instrument, pe.qty, stopTrigger(pe.avgPrice, 30, peInst.tickSize)],
      ].sort(),
    );

    // 09:22 now; the exit time is 09:40.
    await paper.run(20 * 60_000);
    const positions = paper.sim.venue.positions().filter((p) => p.instrument === ce.instrument || p.instrument === pe.instrument);
    expect(positions.every((p) => p.netQty === 0)).toBe(true);
    const after = paper.sim.venue.orders();
    expect(after.filter((o) => o.requestedOrderType === 'STOP_LOSS').every((o) => o.status === 'CANCELLED' || o.status === 'FILLED')).toBe(true);
  }, 60_000);
});
