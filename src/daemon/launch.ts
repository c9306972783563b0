/**
 * Builds a running daemon from a config: `live` against the broker in `broker:`, or `paper` against
 * the simulator (started in this process, or already running at `paper.simulator`). Both go through
 * the same broker adapter over real HTTP/WebSocket; only the URLs and credentials differ. The CLI
 * commands (`tarang run`, `tarang paper`), tests and the bench all start daemons through here.
 */
import { checkStrategyEntries } from './strategy-loader.js';
import { configLineOf } from '../core/config.js';
import { dirname, resolve } from 'node:path';
import { request } from 'undici';
import { nseCalendar } from '../core/calendar.js';
import { VirtualClock, WallClock, type Clock } from '../core/clock.js';
import { ConfigError, describeError } from '../core/errors.js';
import { registerSecret, type Logger } from '../core/log.js';
import type { Store } from '../core/store.js';
import { istDate, istDateTime } from '../core/time.js';
import { createBroker, type BrokerOptions } from '../adapters/broker/broker.js';
import { parseBrokerConfig, loadBrokerConfig, type BrokerConfigInput } from '../adapters/broker/config.js';
import type { MasterSource } from '../core/instrument-master.js';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../adapters/simulator/index.js';
import { getStrategy, strategyNames } from '../strategies/registry.js';
import type { StrategyDefinition } from '../strategies/strategy.js';
import { brokerSession } from './broker-session.js';
import { PaperSchema, type DaemonConfig, type PaperConfig } from './config.js';
import { Daemon, type DaemonMode } from './daemon.js';
import type { Engine } from '../engine/engine.js';
import type { LatencySink } from './observers.js';
import { paceClock, type Pacer } from './pacer.js';
import { stockFreezeDir, useStockFreezeDir } from '../risk/rules/stock-freeze.js';

export interface LaunchOptions {
  readonly config: DaemonConfig;
  /** The config file, for messages and relative paths. */
  readonly file: string;
  readonly mode: DaemonMode;
  readonly log: Logger;
  /** Status display output; null for none (tests, bench). */
  readonly out?: NodeJS.WritableStream | null;
  /** Paper: a clock to share with the embedded simulator (tests pass a VirtualClock). */
  readonly clock?: Clock;
  /**
   * Paper: a simulator already running in this process (tests, bench): its clock, URLs and
   * credentials are used and it is left running when the daemon stops.
   */
  readonly attach?: RunningSimulator;
  /** Paper: extra options of the embedded simulator (universe size, tick rates, rate limits). */
  readonly simulator?: SimulatorOptions;
  /** Overrides of the broker config (timeouts, retry) on top of the file's. */
  readonly broker?: Partial<BrokerConfigInput>;
  readonly brokerOptions?: BrokerOptions;
  /** A store shared across daemon restarts in one process (tests). */
  readonly store?: Store;
  /** Tick-to-order latency samples, seconds (bench). */
  readonly latencySink?: LatencySink;
  /** Instrument master sources. Default equity + index (+ fno for live). */
  readonly sources?: readonly MasterSource[];
  /**
   * Called with the engine as soon as the daemon has built it, before it loads state or reconciles
   * (tests and the bench observe the bus from its first event).
   */
  readonly onEngine?: (engine: Engine) => void;
}

export interface Launched {
  readonly daemon: Daemon;
  readonly clock: Clock;
  /** The embedded simulator (paper with `simulator: embedded`). */
  readonly simulator?: RunningSimulator;
}

function lookup(name: string): StrategyDefinition | undefined {
  try {
    return getStrategy(name);
  } catch {
    return undefined;
  }
}

/** Builds the daemon and its broker session; does not start it. */
export async function launchDaemon(o: LaunchOptions): Promise<Launched> {
  const c = o.config;
  // Every strategy and its params, checked before a simulator, a store or a login is touched.
  await checkStrategyEntries(c.strategies, { lookup, baseDir: dirname(resolve(o.file)), source: o.file, known: strategyNames, lineOf: (path) => configLineOf(o.file, path) });
  // NSE's stock F&O freeze limits the user imported (tarang rules import-freeze) sit in the state
  // folder; the daemon's may not be the default one. Risk, execution and an embedded simulator read them.
  useStockFreezeDir(stockFreezeDir(c.stateDir));
  let clock: Clock;
  let brokerInput: BrokerConfigInput;
  let simulator: RunningSimulator | undefined;
  let label: string = o.mode;
  let pacer: Pacer | undefined;
  let paperCapital: number | undefined;
  // Paper: market ms per wall ms (a separate simulator's own speed, which the daemon's clock follows).
  let speed = 1;
  // The account's session is shared with the CLI and other daemons, except for a simulator in
  // this process (its credentials exist only here).
  let shareSession = true;
  const calendar = nseCalendar();

  if (o.mode === 'paper') {
    const p: PaperConfig = c.paper ?? PaperSchema.parse({});
    speed = p.speed;
    if (o.attach) {
      shareSession = false;
      clock = o.attach.clock;
      brokerInput = simulatorBrokerInput(o.attach);
    } else if (p.simulator === 'embedded') {
      shareSession = false;
      const simClock = o.clock ?? new VirtualClock(paperStart(p, calendar));
      simulator = await startSimulator({
        seed: p.seed,
        logger: o.log.child({ component: 'sim' }),
        clock: simClock,
        ...o.simulator,
        venue: {
          tickIntervals: p.market.tickMs,
          ...(p.market.nseEquities !== undefined ? { nseEquities: p.market.nseEquities } : {}),
          ...(p.market.bseEquities !== undefined ? { bseEquities: p.market.bseEquities } : {}),
          account: { openingBalance: p.capital },
          // One market protection for risk and the simulator's matching (market-protection.ts).
          marketProtectionPct: c.risk.marketProtectionPct,
          ...o.simulator?.venue,
        },
      });
      clock = simulator.clock;
      paperCapital = o.simulator?.venue?.account?.openingBalance ?? p.capital;
      if (!o.clock && simClock instanceof VirtualClock) pacer = paceClock(simClock, p.speed);
      brokerInput = simulatorBrokerInput(simulator);
    } else {
      const remote = await remoteClock(p.simulator);
      // Two clocks at different speeds disagree within seconds: the daemon follows the simulator's.
      if (remote.speed !== undefined && remote.speed !== p.speed) {
        o.log.info({ paperSpeed: p.speed, simulatorSpeed: remote.speed }, `paper: the simulator at ${p.simulator} runs at x${remote.speed}; the daemon's clock follows it (paper.speed is x${p.speed})`);
        speed = remote.speed;
      }
      clock = o.clock ?? new WallClock({ start: remote.now, speed });
      const fromFile = c.broker ?? {};
      brokerInput = { wsUrl: p.wsUrl ?? `${p.simulator.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws`, ...fromFile, baseUrl: p.simulator };
    }
  } else {
    if (!c.broker) throw new ConfigError(`${o.file}: broker: is required for live trading (tarang run); for paper trading use tarang paper`);
    clock = o.clock ?? new WallClock();
    brokerInput = c.broker as BrokerConfigInput;
  }

  if (o.mode === 'paper') label = `paper x${speed}`;
  // Clock-time thresholds meant for a person's seconds scale with an accelerated clock.
  const timeScale = o.mode === 'paper' ? speed : 1;
  let merged: BrokerConfigInput = { ...brokerInput, ...o.broker };
  if (timeScale > 1) merged = { ...merged, ws: { ...merged.ws, stallMs: pacedStallMs(merged.ws?.stallMs, timeScale) } };
  const brokerConfig = o.mode === 'live' ? loadBrokerConfig(merged, process.env, `${o.file}: broker`) : parseBrokerConfig(merged, `${o.file}: paper broker`);
  const sharedSession = shareSession ? { stateDir: c.stateDir, ...(c.store !== 'memory' ? { redisUrl: c.store } : {}) } : undefined;
  const broker = createBroker(brokerConfig, { clock, logger: o.log.child({ component: 'broker' }), calendar, ...(sharedSession ? { sharedSession } : {}), ...o.brokerOptions });
  const session = brokerSession({
    broker,
    clock,
    log: o.log,
    venueName: o.mode === 'paper' ? 'paper' : 'broker',
    sources: o.sources ?? (o.mode === 'live' ? ['equity', 'index', 'fno'] : ['equity', 'index']),
    ...(o.mode === 'live' ? { cacheDir: resolve(c.stateDir, 'cache') } : {}),
    ...(simulator
      ? {
          onClose: async () => {
            await simulator.close();
            pacer?.stop();
          },
        }
      : {}),
  });

  const daemon = new Daemon({
    config: c,
    source: o.file,
    baseDir: dirname(resolve(o.file)),
    mode: o.mode,
    clock,
    log: o.log,
    session,
    strategies: lookup,
    knownStrategies: strategyNames,
    ...(o.onEngine ? { onEngine: o.onEngine } : {}),
    label,
    timeScale,
    marketOpen: (ts) => calendar.isOpen(ts),
    nextSessionOpen: (ts) => {
      const s = calendar.currentOrNextSession(ts);
      return s.open > ts ? s.open : calendar.currentOrNextSession(s.close).open;
    },
    ...(o.out !== undefined ? { out: o.out } : {}),
    ...(o.store ? { store: o.store } : {}),
    ...(o.latencySink ? { latencySink: o.latencySink } : {}),
    ...(paperCapital !== undefined ? { paperCapital } : {}),
  });
  return { daemon, clock, ...(simulator ? { simulator } : {}) };
}

/**
 * Broker settings for a simulator: the dashboard token to start with (no TOTP round trip while an
 * accelerated clock runs), and the TOTP credentials so a revoked or expired token is renewed as
 * it would be live.
 */
function simulatorBrokerInput(sim: RunningSimulator): BrokerConfigInput {
  const cr = sim.credentials;
  registerSecret(cr.access_token);
  registerSecret(cr.admin_key);
  return { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, accessToken: cr.access_token, apiKey: cr.api_key, mpin: cr.mpin, totpSecret: cr.totp_secret };
}

/** Epoch ms where a paper session starts: `paper.date` (or the latest trading day) at `paper.start`. */
export function paperStart(p: Pick<PaperConfig, 'date' | 'start'>, calendar = nseCalendar(), wallNow = wallTime()): number {
  let date = p.date;
  if (!date) {
    const today = istDate(wallNow);
    date = calendar.session(today) ? today : calendar.previousTradingDay(today);
  }
  if (!calendar.session(date)) throw new ConfigError(`paper.date: ${date} is not an NSE trading day`);
  return istDateTime(date, p.start);
}

function wallTime(): number {
  // eslint-disable-next-line no-restricted-properties -- picks which trading day to simulate, never "now" for trading
  return Date.now();
}

/**
 * The WebSocket stall timeout on a clock running `speed` times wall time, in clock ms: a configured
 * `stallMs` is meant in a person's (wall) time and is multiplied; the default is 10 s of wall time
 * (at least the unscaled 20 s). Without this, at x600 the default 20 s of market time is 33 ms of
 * wall time and every pause of the event loop reads as a stall.
 */
export function pacedStallMs(stallMs: number | undefined, speed: number): number {
  return stallMs !== undefined ? Math.round(stallMs * speed) : Math.round(Math.max(20_000, 10_000 * speed));
}

async function remoteClock(baseUrl: string): Promise<{ now: number; speed?: number }> {
  try {
    const r = await request(`${baseUrl.replace(/\/+$/, '')}/sim/clock`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
    const body = (await r.body.json()) as { now_ms?: unknown; speed?: unknown };
    if (typeof body.now_ms !== 'number') throw new Error(`unexpected answer ${JSON.stringify(body).slice(0, 100)}`);
    return { now: body.now_ms, ...(typeof body.speed === 'number' && body.speed > 0 ? { speed: body.speed } : {}) };
  } catch (e) {
    throw new ConfigError(`paper.simulator: no simulator answering at ${baseUrl} (${describeError(e)}); start one with \`tarang sim\` or use simulator: embedded`);
  }
}
