/**
 * Reliability-test harness: one simulator on loopback (small universe, a VirtualClock moved on in
 * half-second steps whenever the daemon and simulator have settled, at most `speed` times wall
 * time: test/support/drive.ts) that outlives daemon restarts, daemons launched against it over real
 * HTTP/WebSocket, the simulator's control API (faults, token revocation), and the broker's own view
 * of orders, trades and positions for comparison with the daemon's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { VirtualClock } from '../../../src/core/clock.js';
import { silentLogger, type Logger } from '../../../src/core/log.js';
import type { Store } from '../../../src/core/store.js';
import { istDateTime } from '../../../src/core/time.js';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../../src/adapters/simulator/index.js';
import { createBroker, type Broker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig, type BrokerConfigInput } from '../../../src/adapters/broker/config.js';
import { BrokerVenue } from '../../../src/adapters/broker/venue.js';
import { RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import type { VenueFill, VenueOrderState, VenuePosition } from '../../../src/adapters/execution/venue.js';
import type { Engine } from '../../../src/engine/engine.js';
import { DaemonConfigSchema, type DaemonConfigInput } from '../../../src/daemon/config.js';
import type { Daemon } from '../../../src/daemon/daemon.js';
import { launchDaemon } from '../../../src/daemon/launch.js';
import type { Event } from '../../../src/core/events.js';
import { driveClock } from '../../support/drive.js';
export { until } from '../../support/wait.js';

const here = dirname(fileURLToPath(import.meta.url));
export const BUY_N = join(here, '..', 'fixtures', 'buy-n.ts');
/** Friday 2026-11-20, 10:00 IST: the market is open. */
export const T0 = istDateTime('2026-11-20', '10:00');

export interface BrokerView {
  readonly orders: readonly VenueOrderState[];
  readonly trades: readonly VenueFill[];
  readonly positions: readonly VenuePosition[];
}

export interface PaperHarness {
  readonly sim: RunningSimulator;
  readonly clock: VirtualClock;
  readonly instrument: string;
  /**
   * Launches and starts a daemon with buy-n on the harness instrument; `observe` sees every bus
   * event from the engine's first (before state is loaded and the session-end timer is set).
   */
  daemon(o: { n: number; concurrent?: number; burst?: number; store?: Store; config?: Partial<DaemonConfigInput>; broker?: Partial<BrokerConfigInput>; log?: Logger; observe?: (e: Event) => void }): Promise<Daemon>;
  /** Waits until `ms` of market time have passed, each step settled (instead of sleeping in wall time). */
  elapse(ms: number, timeoutMs?: number): Promise<void>;
  faults(patch: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  control(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
  /** The simulator's request log (method, path, status), oldest first. */
  requests(): Promise<Array<{ method: string; path: string; status: number }>>;
  /** The broker's own records, read with a fresh token-holding client. */
  brokerView(): Promise<BrokerView>;
  close(): Promise<void>;
}

/**
 * `speed`: the most market time may run ahead of wall time (and the daemons' `paper.speed`); default 10.
 * `start`: the market time to start at (default T0).
 */
export async function startPaperHarness(o: { speed?: number; start?: number; rateLimits?: SimulatorOptions['rateLimits'] } = {}): Promise<PaperHarness> {
  const clock = new VirtualClock(o.start ?? T0);
  const sim = await startSimulator({
    clock,
    logger: silentLogger(),
    venue: { nseEquities: 20, bseEquities: 0, tickIntervals: { cash: 500, futures: 60_000, options: 3_600_000 } },
    ...(o.rateLimits !== undefined ? { rateLimits: o.rateLimits } : {}),
  });
  const speed = o.speed ?? 10;
  const driver = driveClock(clock, { maxSpeed: speed });
  const cr = sim.credentials;
  const viewer: Broker = createBroker(parseBrokerConfig({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, accessToken: cr.access_token, apiKey: cr.api_key, mpin: cr.mpin, totpSecret: cr.totp_secret }), {
    clock,
    logger: silentLogger(),
    limiters: new RateLimiters(clock, {}),
    marketOpen: () => true,
  });
  const venue = new BrokerVenue(viewer);
  const daemons: Daemon[] = [];
  const instrument = 'NSE_2885';

  const control = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> => {
    const r = await request(`${sim.baseUrl}${path}`, {
      method,
      headers: { 'x-sim-admin': cr.admin_key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.body.text();
    if (r.statusCode >= 300) throw new Error(`sim control ${method} ${path}: HTTP ${r.statusCode}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };

  return {
    sim,
    clock,
    instrument,
    async daemon(d) {
      const config = DaemonConfigSchema.parse({
        strategies: [{ id: 'buyer', strategy: BUY_N, params: { instrument, n: d.n, concurrent: d.concurrent ?? 1, burst: d.burst ?? 1 } }],
        store: 'memory',
        stateDir: mkdtempSync(join(tmpdir(), 'tarang-daemon-')),
        ops: { enabled: true, port: 0, token: 'test-token-0123456789abcdef' },
        recording: { enabled: true },
        shutdown: { onStop: 'none', atSessionEnd: 'none' },
        statusIntervalMs: 0,
        checkpointSeconds: 0.2,
        paper: { speed },
        ...d.config,
      });
      const { daemon } = await launchDaemon({
        config,
        file: join(here, 'reliability.yaml'),
        mode: 'paper',
        log: d.log ?? silentLogger(),
        out: null,
        attach: sim,
        sources: ['equity'],
        broker: { retry: { baseDelayMs: 20, maxDelayMs: 200 }, timeouts: { connectMs: 2000, requestMs: 3000, writeMs: 1000 }, ...d.broker },
        ...(d.store ? { store: d.store } : {}),
        ...(d.observe ? { onEngine: (engine) => void engine.bus.onAny(d.observe!) } : {}),
      });
      daemons.push(daemon);
      await daemon.start();
      return daemon;
    },
    elapse: (ms, timeoutMs) => driver.elapse(ms, timeoutMs),
    faults: async (patch) => void (await control('POST', '/sim/faults', patch)),
    clearFaults: async () => void (await control('DELETE', '/sim/faults')),
    control,
    async requests() {
      const r = (await control('GET', '/sim/requests?limit=1000')) as { data: Array<{ method: string; path: string; status: number }> };
      return r.data;
    },
    async brokerView() {
      const [orders, trades, positions] = await Promise.all([venue.orderBook(), venue.trades(), venue.positions()]);
      return { orders, trades, positions };
    },
    async close() {
      for (const d of daemons) await d.stop('harness closing', 'none').catch(() => {});
      await viewer.close();
      driver.stop();
      await sim.close();
    },
  };
}

/** The engine behind a daemon (tests read its order state machine and portfolio). */
export function engineOf(d: Daemon): Engine {
  const e = d.engineHandle;
  if (!e) throw new Error('daemon has no engine (not started)');
  return e;
}

/**
 * Asserts nothing was lost or doubled: every order of ours at the broker has a distinct tag (one
 * broker order per intent), the daemon has seen every one of them reach the broker's status and
 * filled quantity, and both its portfolio and the fills it saw give the broker's net position.
 */
export function compareWithBroker(daemon: Daemon, view: BrokerView, instrument: string): { tags: string[]; problems: string[] } {
  const problems: string[] = [];
  const seen = daemon.stats.orders();
  const ours = view.orders.filter((o) => o.tag !== undefined && /^tr[0-9a-z]+-[0-9a-z]+(?:_[0-9a-z]{5})?$/.test(o.tag));
  const tags = ours.map((o) => o.tag!);
  const dup = tags.filter((t, i) => tags.indexOf(t) !== i);
  if (dup.length) problems.push(`tags placed more than once at the broker: ${[...new Set(dup)].join(', ')}`);
  for (const b of ours) {
    const mine = seen.get(b.tag!);
    if (!mine) {
      problems.push(`broker order ${b.orderId} (${b.tag}) unknown to the daemon`);
      continue;
    }
    if (mine.status !== b.status) problems.push(`${b.tag}: daemon says ${mine.status}, broker ${b.status}`);
    if (mine.filledQty !== (b.filledQty ?? 0)) problems.push(`${b.tag}: daemon filled ${mine.filledQty}, broker ${b.filledQty ?? 0}`);
  }
  for (const [tag, o] of seen) {
    if (o.orderId !== undefined && !ours.some((b) => b.tag === tag)) problems.push(`daemon order ${tag} (${o.orderId}) not at the broker`);
  }
  const brokerNet = view.trades.filter((t) => t.instrument === instrument).reduce((n, t) => n + (t.side === 'BUY' ? t.qty : -t.qty), 0);
  const portfolioNet = engineOf(daemon).portfolio.netQty(instrument);
  if (brokerNet !== portfolioNet) problems.push(`net position: daemon portfolio ${portfolioNet}, broker fills ${brokerNet}`);
  if (brokerNet !== daemon.stats.netQty(instrument)) problems.push(`net position: fills seen by the daemon ${daemon.stats.netQty(instrument)}, broker fills ${brokerNet}`);
  return { tags, problems };
}

/** Orders the daemon has seen, and how many of them are still working. */
export function seenOrders(d: Daemon): { count: number; open: number; filled: number } {
  const all = [...d.stats.orders().values()];
  return { count: all.length, open: all.filter((o) => !['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED'].includes(o.status)).length, filled: all.filter((o) => o.status === 'FILLED').length };
}
