/**
 * The paper daemon at scale: 3,000 instruments subscribed over real WebSocket, a whole simulated
 * trading day (09:15-15:30 IST) at a high clock speed, one strategy on all of them that trades now
 * and then. Reports ticks/s handled by the daemon, tick-to-order latency (tick entering the engine
 * to the order handed to the venue) p50/p99, and heap at start and end (after GC): it must stay
 * flat, since nothing may grow per tick. The simulator runs in the same process and on the same
 * core: it generates, encodes and sends every tick, and a CPU profile shows it taking most of the
 * time, so ticks/s here is the capacity of simulator + daemon together (a lower bound for the
 * daemon alone), and its heap counts in the memory figures (an upper bound for the daemon).
 *
 * Knobs (environment): TARANG_BENCH_SPEED (market ms per wall ms, default 400),
 * TARANG_BENCH_TICK_MS (market ms between ticks of one instrument, default 60000),
 * TARANG_BENCH_MINUTES (simulated minutes, default the whole session: 375).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { VirtualClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/log.js';
import { istDateTime } from '../src/core/time.js';
import { startSimulator } from '../src/adapters/simulator/index.js';
import { registerStrategy } from '../src/strategies/registry.js';
import { defineStrategy, type StrategyDefinition } from '../src/strategies/strategy.js';
import { DaemonConfigSchema } from '../src/daemon/config.js';
import { launchDaemon } from '../src/daemon/launch.js';
import { paceClock } from '../src/daemon/pacer.js';
import type { BenchResult } from './run.js';

export const name = 'daemon (paper, 3,000 instruments, one trading day)';

const INSTRUMENTS = 3000;

/** Trades 1 share, buying when flat and selling when long, on every `every`-th tick it sees. */
const sampler = defineStrategy({
  name: 'bench-sampler',
  description: 'bench: trades now and then across many instruments',
  params: z.object({ instruments: z.array(z.string()).min(1), every: z.number().int().positive() }).strict(),
  create: (p) => {
    let seen = 0;
    return {
      instruments: p.instruments,
      onTick(t, ctx) {
        if (++seen % p.every !== 0) return;
        if (ctx.orders.open(t.instrument).length > 0) return;
        if (ctx.portfolio.netQty(t.instrument) > 0) ctx.sell(t.instrument, 1);
        else ctx.buy(t.instrument, 1);
      },
    };
  },
});

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function run(): Promise<BenchResult[]> {
  const speed = Number(process.env['TARANG_BENCH_SPEED'] ?? 400);
  const tickMs = Number(process.env['TARANG_BENCH_TICK_MS'] ?? 60_000);
  const minutes = Number(process.env['TARANG_BENCH_MINUTES'] ?? 375);
  registerStrategy(sampler as unknown as StrategyDefinition);

  const open = istDateTime('2026-11-20', '09:15');
  const clock = new VirtualClock(open);
  const sim = await startSimulator({
    clock,
    logger: silentLogger(),
    rateLimits: false,
    venue: { nseEquities: 2400, bseEquities: 1000, tickIntervals: { cash: tickMs, futures: 3_600_000, options: 3_600_000 } },
  });
  const master = await (await fetch(`${sim.baseUrl}/market/instruments?source=equity`, { headers: { authorization: sim.credentials.access_token } })).text();
  const codes = master
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .filter((c) => c[0] === 'NSE' || c[0] === 'BSE')
    .map((c) => `${c[0]}_${c[2]}`)
    .slice(0, INSTRUMENTS);
  if (codes.length < INSTRUMENTS) throw new Error(`the simulator lists only ${codes.length} equities`);

  const latencies: number[] = [];
  const config = DaemonConfigSchema.parse({
    strategies: [{ id: 'sampler', strategy: 'bench-sampler', params: { instruments: codes, every: 997 } }],
    stateDir: mkdtempSync(join(tmpdir(), 'tarang-bench-')),
    ops: { enabled: false },
    recording: { enabled: false },
    shutdown: { onStop: 'none', atSessionEnd: 'none' },
    statusIntervalMs: 0,
    risk: { maxOpenOrders: 1000, orderRate: { max: 1000, windowMs: 1000 } },
    paper: { speed },
  });
  const pacer = paceClock(clock, speed, { maxStepMs: 5_000 });
  const { daemon } = await launchDaemon({
    config,
    file: 'bench/daemon.bench.ts',
    mode: 'paper',
    log: silentLogger(),
    out: null,
    attach: sim,
    sources: ['equity'],
    broker: { rateLimits: { orders: { perWindow: 1000, windowMs: 1000 }, nonTrading: { perWindow: 1000, windowMs: 1000 } } },
    latencySink: (s) => latencies.push(s),
  });
  await daemon.start();

  const end = open + minutes * 60_000;
  // Start measuring once every connection is up and the first full round of ticks has arrived.
  while (daemon.stats.snapshot().ticks < INSTRUMENTS) await new Promise((r) => setTimeout(r, 50));
  const heapStart = heapMb();
  const ticks0 = daemon.stats.snapshot().ticks;
  const market0 = clock.now();
  const wall0 = performance.now();
  let heapMid = heapStart;
  const mid = market0 + (end - market0) / 2;
  while (clock.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    if (heapMid === heapStart && clock.now() >= mid) heapMid = heapMb();
  }
  const wall = (performance.now() - wall0) / 1000;
  const s = daemon.stats.snapshot();
  const ticks = s.ticks - ticks0;
  const heapEnd = heapMb();
  const behind = Math.max(0, (performance.now() - wall0) * speed - (clock.now() - market0));
  await daemon.stop('bench done', 'none');
  pacer.stop();
  await sim.close();

  latencies.sort((a, b) => a - b);
  const simMinutes = (clock.now() - market0) / 60_000;
  return [
    { metric: 'instruments subscribed', value: codes.length, unit: 'instruments' },
    { metric: 'simulated market time', value: simMinutes, unit: 'minutes', note: `x${speed}, ${wall.toFixed(1)} s wall${behind > 60_000 ? `, clock fell ${(behind / 60_000).toFixed(1)} min behind` : ''}` },
    { metric: 'ticks handled', value: ticks, unit: 'ticks' },
    { metric: 'ticks/s handled (WS decode -> bus -> strategy)', value: ticks / wall, unit: 'ticks/s' },
    { metric: 'orders / fills', value: s.orders, unit: 'orders', note: `${s.fills} fills, ${s.denials} denied` },
    { metric: 'tick-to-order latency p50', value: quantile(latencies, 0.5) * 1e6, unit: 'us', lowerIsBetter: true },
    { metric: 'tick-to-order latency p99', value: quantile(latencies, 0.99) * 1e6, unit: 'us', lowerIsBetter: true, note: `${latencies.length} samples` },
    { metric: 'heap after GC at start (daemon + simulator)', value: heapStart, unit: 'MB', lowerIsBetter: true },
    { metric: 'heap after GC mid-day', value: heapMid, unit: 'MB', lowerIsBetter: true },
    { metric: 'heap after GC at end', value: heapEnd, unit: 'MB', lowerIsBetter: true, note: `growth ${(heapEnd - heapStart).toFixed(1)} MB over ${ticks.toLocaleString('en-US')} ticks` },
  ];
}
