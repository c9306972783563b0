/**
 * Engine core speed (issue 5):
 * - events/s through bus -> strategy with a trivial strategy (portfolio mark + a compare per tick);
 * - ticks/s through bus -> strategy -> risk when every tick yields an intent that runs all 13
 *   risk checks (the trading-state check is moved last and denies, so nothing reaches a venue;
 *   each tick is then 3 bus events: tick, intent, denied);
 * - tick-to-order latency p50/p99 in-process: from a decoded tick handed to the engine to the
 *   order request written to the venue (a recording stub venue stamps the write with hrtime),
 *   through candle builder, bus, strategy, risk (all checks) and execution.
 */
import type { BenchResult } from './run.js';
import { Engine } from '../src/engine/engine.js';
import { VirtualClock } from '../src/core/clock.js';
import type { CandleEvent, TickEvent } from '../src/core/events.js';
import { smaCross } from '../src/strategies/sma-cross/index.js';
import { InstrumentTable, type Instrument } from '../src/core/instruments.js';
import { istDateTime } from '../src/core/time.js';
import { RecordingVenue } from '../src/adapters/execution/recording-venue.js';
import { ALL_CHECKS } from '../src/risk/config.js';
import type { Strategy } from '../src/strategies/strategy.js';

export const name = 'engine core (bus -> strategy -> risk -> execution)';

const N_INSTRUMENTS = 50;
const instruments: Instrument[] = Array.from({ length: N_INSTRUMENTS }, (_, k) => ({
  id: `NSE_${1000 + k}`, exchange: 'NSE', segment: 'EQUITY', securityId: String(1000 + k), kind: 'EQUITY',
  tradingSymbol: `SYM${k}`, symbol: `SYM${k}`, lotSize: 1, tickSize: 5,
}));
const T0 = istDateTime('2025-01-06', '09:15');

function ticks(n: number): TickEvent[] {
  const out: TickEvent[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = { type: 'tick', ts: T0 + i, instrument: instruments[i % N_INSTRUMENTS]!.id, ltp: 100_000 + ((i * 7) % 200) * 5 };
  return out;
}

async function engineWith(strategy: Strategy, risk: Parameters<typeof Engine.create>[0]['risk'], venue?: RecordingVenue) {
  const clock = new VirtualClock(T0);
  const v = venue ?? new RecordingVenue({ clock, record: false });
  const engine = await Engine.create({ clock, venue: v, instruments: new InstrumentTable(instruments), strategies: [{ id: 'bench', strategy }], risk, buildCandles: true });
  await engine.start();
  return { engine, clock, venue: v };
}

async function throughputTrivial(): Promise<number> {
  let seen = 0;
  const { engine } = await engineWith({ instruments: instruments.map((i) => i.id), onTick: (t) => { if (t.ltp > 0) seen++; } }, {});
  const data = ticks(200_000);
  for (const t of data) engine.publishTick(t); // warm-up (JIT)
  const rounds = 10;
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (let i = 0; i < data.length; i++) engine.publishTick(data[i]!);
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  if (seen !== data.length * (rounds + 1)) throw new Error(`strategy saw ${seen} ticks`);
  return (rounds * data.length) / secs;
}

/** A trivial strategy that sends an intent on every `every`-th tick through all risk checks. */
async function throughputWithRisk(every: number): Promise<{ ticksPerSec: number; eventsPerSec: number }> {
  const checks = [...ALL_CHECKS.filter((c) => c !== 'tradingState'), 'tradingState' as const];
  let denied = 0;
  let n = 0;
  const strategy: Strategy = {
    instruments: instruments.map((i) => i.id),
    onTick: (t, ctx) => {
      if (++n % every === 0) ctx.submit({ kind: 'place', instrument: t.instrument, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: t.ltp, validity: 'DAY', product: 'INTRADAY' });
    },
  };
  const { engine } = await engineWith(strategy, { checks, tradingState: 'halted', maxOrderValue: 10_000_000_00, maxPositionQty: 1_000_000 });
  engine.bus.on('denied', () => void denied++);
  const data = ticks(200_000);
  for (const t of data) engine.publishTick(t);
  const rounds = 5;
  const events0 = engine.bus.count;
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (let i = 0; i < data.length; i++) engine.publishTick(data[i]!);
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  if (denied !== Math.floor(n / every)) throw new Error(`expected every intent denied, got ${denied} of ${Math.floor(n / every)}`);
  return { ticksPerSec: (rounds * data.length) / secs, eventsPerSec: (engine.bus.count - events0) / secs };
}

async function latency(): Promise<{ p50: number; p99: number; p999: number }> {
  const clock = new VirtualClock(T0);
  // Orders fill at once (MARKET), so the strategy flips long/flat and risk sees real positions.
  const venue = new RecordingVenue({ clock, autoFill: (r) => (r.orderType === 'MARKET' ? 100_000 : undefined) });
  const inst = instruments[0]!.id;
  const strategy: Strategy = {
    instruments: [inst],
    intervals: ['1minute'],
    onTick: (_t, ctx) => {
      if (ctx.portfolio.netQty(inst) === 0) ctx.buy(inst, 1);
      else ctx.sell(inst, 1);
    },
  };
  const { engine } = await engineWith(strategy, { orderRate: { max: 1_000_000_000, windowMs: 1000 }, maxOpenOrders: 1_000_000 }, venue);
  const n = 60_000;
  const warm = 20_000;
  const samples = new Float64Array(n - warm);
  for (let i = 0; i < n; i++) {
    clock.advanceBy(5);
    const tick: TickEvent = { type: 'tick', ts: clock.now(), instrument: inst, ltp: 100_000 + (i % 20) * 5 };
    const before = venue.writes.length;
    const t0 = process.hrtime.bigint();
    engine.publishTick(tick);
    const w = venue.writes[before];
    if (!w) throw new Error(`tick ${i} produced no order`);
    if (i >= warm) samples[i - warm] = Number(w.at - t0) / 1000;
    if (venue.writes.length > 10_000) venue.writes.length = 0;
  }
  samples.sort();
  const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  return { p50: q(0.5), p99: q(0.99), p999: q(0.999) };
}

/** sma-cross over 1,000,000 one-minute candles (the engine's share of a backtest: no matching). */
async function candles(): Promise<{ perSec: number; orders: number }> {
  const clock = new VirtualClock(T0);
  const inst = instruments[0]!.id;
  let last = 100_000;
  const venue = new RecordingVenue({ clock, record: false, autoFill: (r) => (r.orderType === 'MARKET' ? last : undefined) });
  const engine = await Engine.create({
    clock, venue, instruments: new InstrumentTable(instruments), buildCandles: false, tagPrefix: 'bt',
    strategies: [{ id: 'sma', definition: smaCross, params: { instrument: inst, interval: '1minute', fast: 10, slow: 30, qty: 10 } }],
  });
  await engine.start();
  const n = 1_000_000;
  const data: CandleEvent[] = new Array(n);
  let px = 100_000;
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    const o = px;
    px = Math.max(1_000, px + ((seed % 21) - 10) * 5);
    data[i] = { type: 'candle', ts: T0 + (i + 1) * 60_000, start: T0 + i * 60_000, instrument: inst, interval: '1minute', open: o, high: Math.max(o, px), low: Math.min(o, px), close: px, volume: 1000 };
  }
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const c = data[i]!;
    clock.advanceTo(c.ts);
    last = c.close;
    engine.publishCandle(c);
  }
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  return { perSec: n / secs, orders: venue.writes.length };
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

export async function run(): Promise<BenchResult[]> {
  // Each measurement starts on a collected heap (npm run bench passes --expose-gc).
  gc();
  const bt = await candles();
  gc();
  const trivial = await throughputTrivial();
  gc();
  const risk = await throughputWithRisk(1);
  gc();
  const risk100 = await throughputWithRisk(100);
  gc();
  const lat = await latency();
  return [
    { metric: 'events/s bus -> strategy (trivial)', value: trivial, unit: 'ev/s', target: 1_000_000 },
    { metric: 'events/s bus -> strategy -> risk (intent per 100 ticks)', value: risk100.eventsPerSec, unit: 'ev/s', target: 1_000_000 },
    { metric: 'events/s bus -> strategy -> risk (intent every tick)', value: risk.eventsPerSec, unit: 'ev/s', note: `${Math.round(risk.ticksPerSec).toLocaleString('en-US')} ticks/s, each tick+intent+denied through all 13 checks` },
    { metric: 'tick-to-order latency p50 (in-process)', value: lat.p50, unit: 'µs', target: 100, lowerIsBetter: true },
    { metric: 'tick-to-order latency p99 (in-process)', value: lat.p99, unit: 'µs', target: 100, lowerIsBetter: true },
    { metric: 'tick-to-order latency p99.9 (in-process)', value: lat.p999, unit: 'µs' },
    { metric: 'candles/s through the engine, sma-cross (no matching)', value: bt.perSec, unit: 'candles/s', note: `${bt.orders.toLocaleString('en-US')} orders; the backtester adds parsing and matching` },
  ];
}
