/**
 * Simulator throughput on loopback (issue 3 targets):
 * - order placements/s over keep-alive HTTP (undici Pool, several connections with pipelining,
 *   rate limits lifted): the simulator runs in a child process, as it does for real clients;
 * - WebSocket ticks/s delivered across 3 connections: the hub runs here with a replay of real
 *   market-model ticks, the 3 clients in a child process, counting what arrives;
 * - a simulated trading day of 3,000 instruments through the simulator's live path (market model
 *   -> matching engine -> tick listeners). The model alone is benched in matching.bench.ts.
 * This file is also the child: `SIM_BENCH_ROLE` (server | clients) says which side it plays; it
 * talks to the parent in JSON lines on stdin/stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import WebSocket from 'ws';
import type { BenchResult } from './run.js';
import { VirtualClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/log.js';
import { istDateTime } from '../src/core/time.js';
import { MarketCalendar } from '../src/core/calendar.js';
import type { Instrument } from '../src/core/instruments.js';
import { startSimulator } from '../src/adapters/simulator/index.js';
import { TokenRegistry } from '../src/adapters/simulator/auth/token-registry.js';
import { noFaults } from '../src/adapters/simulator/control/faults.js';
import { MarketModel, syntheticSpec, type MarketTick } from '../src/adapters/simulator/market/index.js';
import { MatchingEngine, noCharges } from '../src/adapters/simulator/matching/index.js';
import { LiveMarket } from '../src/adapters/simulator/server/live-market.js';
import type { SimVenue } from '../src/adapters/simulator/server/venue.js';
import { WsHub } from '../src/adapters/simulator/ws/ws-hub.js';

export const name = 'simulator (HTTP orders, WebSocket fan-out, live market day)';

const OPEN = istDateTime('2026-11-20', '09:15');
const CLOSE = istDateTime('2026-11-20', '15:30');

interface ServerReady {
  baseUrl: string;
  token: string;
}

// ---------------------------------------------------------------------------------------------
// Worker side

async function serverRole(): Promise<void> {
  const sim = await startSimulator({
    clock: new VirtualClock(istDateTime('2026-11-20', '10:00')),
    logger: silentLogger(),
    rateLimits: false,
    venue: { tickIntervals: { cash: 600_000, futures: 600_000, options: 3_600_000 }, account: { openingBalance: 1e13, charges: noCharges } },
  });
  process.stdout.write(`${JSON.stringify({ baseUrl: sim.baseUrl, token: sim.credentials.access_token } satisfies ServerReady)}\n`);
  process.stdin.once('data', () => void sim.close().then(() => process.exit(0)));
}

async function clientsRole(): Promise<void> {
  const { url, token, instruments, seconds } = JSON.parse(process.env['SIM_BENCH_ARGS'] ?? '{}') as { url: string; token: string; instruments: string[]; seconds: number };
  let count = 0;
  const sockets = await Promise.all(
    [0, 1, 2].map(
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url, { headers: { authorization: token }, perMessageDeflate: false });
          ws.on('message', () => count++);
          ws.once('open', () => {
            for (let i = 0; i < instruments.length; i += 1000) ws.send(JSON.stringify({ action: 'subscribe', mode: 'ltp', instruments: instruments.slice(i, i + 1000) }));
            resolve(ws);
          });
          ws.once('error', reject);
        }),
    ),
  );
  process.stdout.write(`${JSON.stringify({ subscribed: true })}\n`);
  await new Promise((r) => setTimeout(r, 500));
  const c0 = count;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const delivered = count - c0;
  const s = (performance.now() - t0) / 1000;
  for (const ws of sockets) ws.terminate();
  process.stdout.write(`${JSON.stringify({ delivered, seconds: s })}\n`);
  process.exit(0);
}

const role = process.env['SIM_BENCH_ROLE'];
if (role === 'server') void serverRole();
else if (role === 'clients') void clientsRole();

// ---------------------------------------------------------------------------------------------
// Benches

/** This file as a child process playing `role`; its stdout lines come back parsed. */
function child(roleName: string, args: Record<string, unknown> = {}): { proc: ChildProcess; next<T>(pred?: (m: unknown) => boolean): Promise<T> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, SIM_BENCH_ROLE: roleName, SIM_BENCH_ARGS: JSON.stringify(args) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: unknown[] = [];
  const waiters: { pred: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];
  createInterface({ input: proc.stdout! }).on('line', (l) => {
    let m: unknown;
    try {
      m = JSON.parse(l);
    } catch {
      return;
    }
    const w = waiters.findIndex((x) => x.pred(m));
    if (w >= 0) waiters.splice(w, 1)[0]!.resolve(m);
    else lines.push(m);
  });
  return {
    proc,
    next<T>(pred: (m: unknown) => boolean = () => true): Promise<T> {
      const i = lines.findIndex(pred);
      if (i >= 0) return Promise.resolve(lines.splice(i, 1)[0] as T);
      return new Promise((resolve, reject) => {
        waiters.push({ pred, resolve: (m) => resolve(m as T) });
        proc.once('exit', (code) => reject(new Error(`bench child ${roleName} exited (${code})`)));
      });
    },
  };
}

async function orderThroughput(): Promise<BenchResult[]> {
  const server = child('server');
  const ready = await server.next<ServerReady>();
  const pool = new Pool(ready.baseUrl, { connections: 8, pipelining: 8 });
  const body = (i: number): string =>
    JSON.stringify({
      txn_type: i % 2 === 0 ? 'BUY' : 'SELL',
      exchange: 'NSE',
      segment: 'EQUITY',
      security_id: '2885',
      qty: 1,
      order_type: 'MARKET',
      validity: 'DAY',
      product: 'INTRADAY',
      is_amo: false,
      algo_id: '99999',
      remarks: `bench-${i}`,
    });
  const headers = { authorization: ready.token, 'content-type': 'application/json' };
  const place = async (i: number): Promise<number> => {
    const r = await pool.request({ path: '/order', method: 'POST', headers, body: body(i) });
    await r.body.dump();
    return r.statusCode;
  };
  // Warm up (JIT, connections), then measure.
  for (let i = 0; i < 2000; i += 64) await Promise.all(Array.from({ length: 64 }, (_, k) => place(i + k)));
  const N = 30_000;
  const CONCURRENCY = 64;
  let next = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const i = next++;
        if ((await place(10_000 + i)) === 200) ok++;
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  await pool.close();
  server.proc.stdin!.write('stop\n');
  await new Promise((r) => server.proc.once('exit', r));
  return [
    {
      metric: 'order placements/s over keep-alive HTTP',
      value: ok / s,
      unit: 'orders/s',
      target: 5000,
      note: `${ok}/${N} accepted; MARKET fills, 8 connections x pipelining 8, ${CONCURRENCY} in flight`,
    },
  ];
}

async function wsFanOut(): Promise<BenchResult[]> {
  // 3,000 instruments and a replay of their real ticks, cycled: two minutes of the market model
  // (183,000 ticks, ~80 MB) rather than twenty (1.8 million tick objects, ~770 MB of heap, which
  // made this the section that set the whole bench's peak RSS). Still far beyond any cache.
  const instruments: Instrument[] = Array.from({ length: 3000 }, (_, i) => ({
    id: `NSE_${10_000 + i}`,
    exchange: 'NSE',
    segment: 'EQUITY',
    securityId: String(10_000 + i),
    kind: 'EQUITY',
    tradingSymbol: `SYM${i}`,
    symbol: `SYM${i}`,
    lotSize: 1,
    tickSize: 5,
  }));
  const model = new MarketModel(instruments.map((i) => syntheticSpec(i, 9)), { seed: 9, sessionOpen: OPEN });
  const replay: MarketTick[] = model.advanceTo(OPEN + 2 * 60_000);
  const byId = new Map(instruments.map((i) => [i.id, i]));
  const listeners: ((t: MarketTick) => void)[] = [];
  const venue = {
    instrument: (code: string) => byId.get(code),
    lastTick: () => undefined,
    quote: () => undefined,
    bookTotals: () => undefined,
    onTick: (l: (t: MarketTick) => void) => {
      listeners.push(l);
      return () => {};
    },
    onEvent: () => () => {},
    onDropped: () => () => {},
  } as unknown as SimVenue;
  const clock = new VirtualClock(OPEN);
  const tokens = new TokenRegistry(clock);
  const token = tokens.issueDashboard().token;
  const http = createServer();
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const hub = new WsHub(http, { clock, log: silentLogger(), tokens, venue, faults: noFaults() });
  const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws`;
  const seconds = 4;
  const clients = child('clients', { url, token, instruments: instruments.map((i) => i.id.replace('_', ':')), seconds });
  await clients.next((m) => (m as { subscribed?: boolean }).subscribed === true);
  await new Promise((r) => setTimeout(r, 200));
  // Push ticks in batches per event-loop turn, as the market pump does, until the clients finish.
  let running = true;
  let k = 0;
  const done = clients.next<{ delivered: number; seconds: number }>((m) => (m as { delivered?: number }).delivered !== undefined);
  const pumpLoop = (): void => {
    if (!running) return;
    for (let j = 0; j < 2000; j++) {
      const t = replay[k++ % replay.length]!;
      for (const l of listeners) l(t);
    }
    setImmediate(pumpLoop);
  };
  pumpLoop();
  const r = await done;
  running = false;
  hub.close();
  http.close();
  clients.proc.kill();
  return [
    {
      metric: 'WebSocket ticks/s delivered across 3 connections',
      value: r.delivered / r.seconds,
      unit: 'ticks/s',
      target: 200_000,
      note: '3,000 instruments in ltp mode on each connection',
    },
  ];
}

function simulatedDay(): BenchResult[] {
  const instruments: Instrument[] = Array.from({ length: 3000 }, (_, i) => ({
    id: `NSE_${20_000 + i}`,
    exchange: 'NSE',
    segment: 'EQUITY',
    securityId: String(20_000 + i),
    kind: 'EQUITY',
    tradingSymbol: `DAY${i}`,
    symbol: `DAY${i}`,
    lotSize: 1,
    tickSize: 5,
  }));
  const clock = new VirtualClock(OPEN);
  const calendar = new MarketCalendar({ holidays: [] });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const market = new LiveMarket({ clock, calendar, instruments, seed: 5, log: silentLogger(), tickIntervals: { cash: 2000 }, pumpMs: 1000 });
  const table = { get: (id: string) => instruments.find((i) => i.id === id) };
  const engine = new MatchingEngine({ instruments: table, clock, accountOptions: { charges: noCharges } });
  let ticks = 0;
  market.onTick(() => ticks++);
  market.start(engine);
  clock.advanceTo(CLOSE);
  const s = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  market.close();
  return [
    {
      metric: 'simulated day, 3,000 instruments through model + engine',
      value: s,
      unit: 's',
      target: 10,
      lowerIsBetter: true,
      note: `${ticks.toLocaleString('en-US')} ticks (2 s interval), ${((used.user + used.system) / 1e6).toFixed(2)} s CPU`,
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  // The day first: it is CPU-bound and the others leave child processes and garbage behind.
  const day = simulatedDay();
  return [...(await orderThroughput()), ...(await wsFanOut()), ...day];
}
