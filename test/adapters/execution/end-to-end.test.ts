/**
 * End to end over real HTTP and WebSocket on loopback: a simulator tick -> the broker adapter's
 * market stream -> engine (strategy -> risk) -> order over REST -> fill at the simulator -> order
 * update over the WebSocket -> fill -> position, with the tag we sent found in the broker's book.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/adapters/simulator/index.js';
import { createBroker, type Broker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import { BrokerVenue } from '../../../src/adapters/broker/venue.js';
import { Engine } from '../../../src/engine/engine.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Event, PositionEvent } from '../../../src/core/events.js';
import { InstrumentTable } from '../../../src/core/instruments.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDateTime } from '../../../src/core/time.js';
import type { Strategy } from '../../../src/strategies/strategy.js';

const CODE = 'NSE_2885';
let cleanup: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

function waitFor<T>(what: string, ms: number, probe: (resolve: (v: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    probe((v) => {
      clearTimeout(t);
      resolve(v);
    });
  });
}

describe('end to end against the simulator', () => {
  it('simulator tick -> strategy -> risk -> order -> fill -> position, over real HTTP and WebSocket', async () => {
    const clock = new VirtualClock(istDateTime('2026-11-20', '10:00'));
    const sim: RunningSimulator = await startSimulator({ clock, logger: silentLogger(), venue: { nseEquities: 50, bseEquities: 10, tickIntervals: { cash: 60_000, futures: 60_000, options: 600_000 }, pumpMs: 1000 } });
    cleanup.push(() => sim.close());
    const inst = sim.venue.instrument(CODE);
    expect(inst, `${CODE} in the simulator's universe`).toBeDefined();
    const config = parseBrokerConfig({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, accessToken: sim.credentials.access_token, timeouts: { connectMs: 2000, requestMs: 5000, writeMs: 2000 } });
    const broker: Broker = createBroker(config, { clock, logger: silentLogger(), limiters: new RateLimiters(clock, config.rateLimits), marketOpen: () => true });
    cleanup.push(() => broker.close());
    const venue = new BrokerVenue(broker);

    const strategy: Strategy = {
      instruments: [CODE],
      onTick: (_t, ctx) => {
        if (ctx.portfolio.netQty(CODE) === 0 && ctx.orders.open(CODE).length === 0 && ctx.state['bought'] !== true) {
          ctx.state['bought'] = true;
          ctx.buy(CODE, 1);
        }
      },
    };
    const engine = await Engine.create({ clock, venue, instruments: new InstrumentTable([inst!]), strategies: [{ id: 'e2e', strategy }], log: silentLogger() });
    const events: Event[] = [];
    engine.bus.onAny((e) => events.push(e));
    await engine.start();
    cleanup.push(() => engine.stop());

    const md = broker.marketData();
    const sub = md.ticks$.subscribe((t) => engine.publishTick(t));
    cleanup.push(async () => sub.unsubscribe());
    md.subscribe([CODE]);

    const position = waitFor<PositionEvent>('a position of 1', 15_000, (done) => {
      engine.bus.on('position', (p) => {
        if (p.strategyId === 'e2e' && p.netQty === 1) done(p);
      });
    });
    // Nudge the price until a tick reaches the engine (the subscription needs a moment to land).
    const nudger = setInterval(() => {
      const last = sim.venue.lastTick(CODE)?.ltp ?? 1_000_00;
      sim.venue.setPrice(CODE, last + inst!.tickSize);
    }, 50);
    cleanup.push(async () => clearInterval(nudger));
    const p = await position;
    clearInterval(nudger);

    const intent = events.find((e) => e.type === 'intent');
    expect(intent).toBeDefined();
    const tag = intent!.type === 'intent' ? intent!.intent.id : '';
    const order = engine.orders.get(tag)!;
    expect(order).toMatchObject({ status: 'FILLED', filledQty: 1, side: 'BUY' });
    expect(order.orderId).toBeDefined();
    expect(p.openValue).toBe(order.filledValue);
    // The broker's own book holds exactly one order, carrying our tag as remarks.
    const book = await venue.orderBook();
    expect(book.filter((o) => o.tag === tag)).toHaveLength(1);
    expect(events.some((e) => e.type === 'fill' && e.tag === tag)).toBe(true);
  });
});
