/**
 * A future held through expiry, over real HTTP and WebSocket: the simulator settles it at the next
 * session's open and pushes the flat position; tarang's portfolio books the settlement (no phantom
 * position left for the strategy or the session's P&L).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/adapters/simulator/index.js';
import { Universe } from '../../../src/adapters/simulator/universe/index.js';
import { createBroker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import { BrokerVenue } from '../../../src/adapters/broker/venue.js';
import { Engine } from '../../../src/engine/engine.js';
import { nseCalendar } from '../../../src/core/calendar.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { AlertEvent, FillEvent, PositionEvent } from '../../../src/core/events.js';
import { InstrumentTable } from '../../../src/core/instruments.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDate, istDateTime } from '../../../src/core/time.js';
import type { PortfolioView, Strategy } from '../../../src/strategies/strategy.js';
import { until } from '../../support/wait.js';
import { SessionStats } from '../../../src/daemon/session-stats.js';
import { bare, harness } from './harness.js';

const calendar = nseCalendar();
let cleanup: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

describe('a position held through expiry', () => {
  it("is booked flat at the settlement price the venue applied, from the venue's position update after the expiry", async () => {
    const T0 = istDateTime('2026-11-20', '10:00');
    const clock = new VirtualClock(T0);
    const sim = await startSimulator({
      clock,
      logger: silentLogger(),
      tokenLifetimeMs: 10 * 86_400_000,
      rateLimits: false,
      venue: { tickIntervals: { cash: 600_000, futures: 600_000, options: 3_600_000 }, pumpMs: 60_000 },
    });
    cleanup.push(() => sim.close());
    const u = Universe.shared({ seed: 1, today: istDate(T0), calendar });
    const expiry = u.currentExpiries('NIFTY')[0]!;
    const contract = u.contracts('NIFTY', expiry).find((c) => c.optionType === null)!;
    const code = u.scripCodeOf(contract)!;
    const fut = sim.venue.instrument(code)!;
    expect(fut.expiry).toBe(expiry);
    const index = u.underlying('NIFTY')!.instrument.id;

    const config = parseBrokerConfig({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, accessToken: sim.credentials.access_token, timeouts: { connectMs: 2000, requestMs: 5000, writeMs: 2000 } });
    const broker = createBroker(config, { clock, logger: silentLogger(), limiters: new RateLimiters(clock, config.rateLimits), marketOpen: () => true });
    cleanup.push(() => broker.close());
    const ask = sim.venue.quote(code)!.ask;
    let view: PortfolioView | undefined;
    const strategy: Strategy = {
      instruments: [code],
      onStart: (ctx) => {
        view = ctx.portfolio;
        // A marketable limit (risk prices the margin off it): fills at the ask.
        ctx.buy(code, fut.lotSize, { product: 'MARGIN', limitPrice: ask + 100 * fut.tickSize });
      },
    };
    const engine = await Engine.create({ clock, venue: new BrokerVenue(broker), instruments: new InstrumentTable([fut]), strategies: [{ id: 'exp', strategy }], log: silentLogger() });
    const fills: FillEvent[] = [];
    const positions: PositionEvent[] = [];
    const alerts: AlertEvent[] = [];
    engine.bus.on('fill', (f) => fills.push(f));
    engine.bus.on('position', (p) => positions.push(p));
    engine.bus.on('alert', (a) => alerts.push(a));
    const stats = new SessionStats();
    engine.bus.onAny((e) => stats.observe(e));
    await engine.start();
    cleanup.push(() => engine.stop());
    await until(() => view !== undefined && view.netQty(code) === fut.lotSize, 'the future bought');
    const cost = fills.reduce((v, f) => v + f.qty * f.price, 0);

    // The index closes the expiry session at S (forced in its last millisecond); the next open settles.
    const S = Math.round(sim.venue.quote(index)!.ltp / 5) * 5 + 12_345;
    const close = istDateTime(expiry, '15:30');
    clock.advanceTo(close - 1);
    sim.venue.setPrice(index, S);
    const next = calendar.currentOrNextSession(close + 1);
    clock.advanceTo(next.open + 60_000);

    const pnl = fut.lotSize * S - cost;
    await until(() => positions.some((p) => p.strategyId === 'exp' && p.netQty === 0), 'the settlement booked');
    expect(view!.netQty(code)).toBe(0);
    expect(view!.position(code, 'MARGIN')).toMatchObject({ netQty: 0, openValue: 0, realizedPnl: pnl - fills.reduce((c, f) => c + (f.charges ?? 0), 0), unrealizedPnl: 0 });
    expect(engine.portfolio.positions()).toEqual([]);
    // Booked as a settlement fill the strategy and the session's figures see like any other.
    const ref = `${code}:MARGIN:${expiry}`;
    expect(fills.at(-1)).toMatchObject({ fillId: `settlement:${ref}:exp`, tag: `settlement:${ref}`, strategyId: 'exp', side: 'SELL', qty: fut.lotSize, price: S, product: 'MARGIN', charges: 0 });
    const summary = stats.snapshot();
    expect(summary.positions).toEqual([]);
    expect(summary.pnl).toBe(engine.portfolio.realizedPnl());
    const settled = alerts.find((a) => a.code === 'EXPIRY_SETTLED')!;
    expect(settled).toMatchObject({ level: 'info', context: { instrument: code, product: 'MARGIN', expiry, qty: fut.lotSize, price: S, realizedPnl: pnl } });
    // The reconcile finds tarang and the venue agreeing: nothing settled twice, no mismatch.
    expect(await engine.execution.resync('after expiry')).toBe(true);
    expect(alerts.filter((a) => a.code === 'EXPIRY_SETTLED')).toHaveLength(1);
    expect(alerts.filter((a) => a.code === 'POSITION_MISMATCH')).toEqual([]);
    expect(engine.portfolio.realizedPnl()).toBe(view!.position(code, 'MARGIN')!.realizedPnl);
  });
});

describe('settlement read from venue position records', () => {
  // The harness trades RELIANCE; the rule reads only the venue's record (flat, an expiry before today).
  async function longTen() {
    const ctx: { buy?: (q: number) => void } = {};
    const h = await harness({
      venue: { autoFill: (r) => r.limitPrice },
      strategies: [{ id: 's1', strategy: bare({ onStart: (c) => void (ctx.buy = (q) => void c.buy('NSE_2885', q, { limitPrice: 100_00 })) }) }],
    });
    ctx.buy!(10);
    h.tick(105_00);
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(10);
    return h;
  }
  const flat = (ts: number, extra: Record<string, unknown>) => ({ kind: 'position' as const, position: { instrument: 'NSE_2885', product: 'INTRADAY' as const, netQty: 0, avgPrice: 0, ts, ...extra } });

  it('leaves the position alone while the expiry is today or later, or when the venue still shows it open', async () => {
    const h = await longTen();
    h.venue.emit(flat(h.clock.now(), { expiry: '2025-01-06', realizedPnl: 0 }));
    h.venue.emit({ kind: 'position', position: { instrument: 'NSE_2885', product: 'INTRADAY', netQty: 10, avgPrice: 100_00, expiry: '2025-01-03', ts: h.clock.now() } });
    h.venue.emit(flat(h.clock.now(), {}));
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(10);
    expect(h.of('alert').filter((a) => a.code === 'EXPIRY_SETTLED')).toEqual([]);
  });

  it('clears a position the venue shows flat after expiry at the last price, with a warning, when no settlement P&L is reported', async () => {
    const h = await longTen();
    h.venue.emit(flat(h.clock.now(), { expiry: '2025-01-03' }));
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(0);
    expect(h.engine.portfolio.realizedPnl()).toBe(10 * 5_00);
    const a = h.of('alert').filter((x) => x.code === 'EXPIRY_SETTLED');
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ level: 'warn', context: { qty: 10, price: 105_00, realizedPnl: 50_00, venueRealizedPnl: null } });
    expect(a[0]!.message).toMatch(/no settlement price could be read/);
  });
});

