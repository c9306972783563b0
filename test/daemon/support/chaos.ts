/**
 * The chaos run (#14): the paper daemon against the simulator through a SEEDED random schedule of
 * faults, checking after every step that nothing was lost, doubled or believed wrongly. The test
 * (test/daemon/chaos.test.ts) runs a short schedule, `npm run bench -- chaos` a long one; both print
 * the seed, and `TARANG_CHAOS_SEED=<seed>` replays a schedule.
 *
 * Strategies: long-only sma-cross on four instruments (1-minute candles, short averages, so they
 * trade every few market minutes), each with its own quantity. Steps (one fault each, then the
 * faults are cleared and the daemon given market time to settle):
 *   timeouts, lost acks (no answer or a 5xx), 5xx, terse + batched + double-encoded WS updates, WS
 *   drops, a WS stall longer than the stall timeout (expects WS_STALLED, then WS_FLOWING), a token
 *   revoke, kill -9 of a `tarang paper` child process and a restart, the store flushed with the
 *   daemon stopped and a restart (orders adopted by the strategy key in their tags), and a Redis
 *   "restart" under the running daemon (connection killed, keys gone).
 * Checks after every step (each waited for, so an order in flight is not taken for a fault):
 *   - every strategy's position at the broker (its trades, by the strategy key in `remarks`) is 0
 *     or its qty: long-only sma-cross never doubles or goes short;
 *   - tarang's view equals the broker's: each order's status and filled quantity, each strategy's
 *     position in the portfolio, each instrument's net;
 *   - every intent a daemon in this process emitted is at the broker (by tag), was denied, or
 *     ended as a REJECTED order its strategy heard of (a write the broker never took);
 *   - no POSITION_MISMATCH was raised.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { Event } from '../../../src/core/events.js';
import { RedisStore } from '../../../src/adapters/redis/store.js';
import { parseTag, rootTag, strategyKey } from '../../../src/adapters/execution/tags.js';
import type { Daemon } from '../../../src/daemon/daemon.js';
import { compareWithBroker, engineOf, startPaperHarness, until, type BrokerView, type PaperHarness } from './paper-harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const ChaosStep = {
  TIMEOUTS: 'timeouts',
  LOST_ACKS: 'lost-acks',
  SERVER_ERRORS: '5xx',
  TERSE_BATCHED: 'terse-batched',
  WS_DROPS: 'ws-drops',
  WS_STALL: 'ws-stall',
  TOKEN_REVOKE: 'token-revoke',
  KILL_9: 'kill-9',
  STORE_FLUSH: 'store-flush',
  REDIS_RESTART: 'redis-restart',
} as const;
export type ChaosStep = (typeof ChaosStep)[keyof typeof ChaosStep];
const ALL_STEPS = Object.values(ChaosStep);

export interface ChaosOptions {
  readonly seed: number;
  /** Steps after the first round (which has every kind once, in a seeded order). */
  readonly extraSteps: number;
  readonly redisUrl: string;
  /** Market time of each fault, ms (the stall step lasts past the stall timeout whatever this says). */
  readonly faultMs?: number;
  /** Clock speed cap (market ms per wall ms) and the daemons' paper.speed. */
  readonly speed?: number;
  /** Left out (e.g. no kill -9 where no child process may run). */
  readonly skip?: readonly ChaosStep[];
  readonly progress?: (line: string) => void;
}

export interface ChaosReport {
  readonly seed: number;
  readonly steps: readonly ChaosStep[];
  readonly marketMs: number;
  /** Alerts raised (incidents and their resolutions), by code. */
  readonly alerts: Readonly<Record<string, number>>;
  readonly orders: number;
  readonly fills: number;
  readonly intents: number;
  readonly denials: number;
  readonly mismatches: number;
  readonly restarts: number;
  /** What broke; empty on success. Each names the step after which it was seen. */
  readonly problems: readonly string[];
}

interface StrategySpec {
  readonly id: string;
  readonly instrument: string;
  readonly qty: number;
}

const STRATEGIES: readonly StrategySpec[] = [
  { id: 'sma-rel', instrument: 'NSE_2885', qty: 1 },
  { id: 'sma-tcs', instrument: 'NSE_11536', qty: 2 },
  { id: 'sma-hdfc', instrument: 'NSE_1333', qty: 3 },
  { id: 'sma-infy', instrument: 'NSE_1594', qty: 1 },
];
const strategyConfig = STRATEGIES.map((s) => ({ id: s.id, strategy: 'sma-cross', params: { instrument: s.instrument, interval: '1minute', fast: 2, slow: 4, qty: s.qty } }));
const byKey = new Map(STRATEGIES.map((s) => [strategyKey(s.id), s]));

/** mulberry32: a small seeded generator (the schedule must replay from its seed). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every kind once in a seeded order, then `extra` drawn at random. */
export function chaosSchedule(seed: number, extra: number, skip: readonly ChaosStep[] = []): ChaosStep[] {
  const rnd = seeded(seed);
  const kinds = ALL_STEPS.filter((k) => !skip.includes(k));
  const first = [...kinds];
  for (let i = first.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [first[i], first[j]] = [first[j]!, first[i]!];
  }
  const more = Array.from({ length: extra }, () => kinds[Math.floor(rnd() * kinds.length)]!);
  return [...first, ...more];
}

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const speed = o.speed ?? 20;
  const faultMs = o.faultMs ?? 180_000;
  const rnd = seeded(o.seed ^ 0x5eed);
  const steps = chaosSchedule(o.seed, o.extraSteps, o.skip);
  const say = o.progress ?? (() => {});
  const prefix = `test:chaos:${o.seed}:${process.pid}:${Math.floor(rnd() * 1e9)}:`;
  const h = await startPaperHarness({ speed });
  const admin = new Redis(o.redisUrl);
  const stateDir = mkdtempSync(join(tmpdir(), 'tarang-chaos-'));
  const alerts: Record<string, number> = {};
  const intents = new Map<string, string>();
  const denied = new Set<string>();
  /** The last status each order of ours had on a bus of this process. */
  const lastStatus = new Map<string, string>();
  const problems: string[] = [];
  const children: ChildProcess[] = [];
  let restarts = 0;
  let mismatches = 0;
  let daemon: Daemon | undefined;
  let store: RedisStore | undefined;
  const t0 = h.clock.now();
  let finalView: BrokerView | undefined;

  const observe = (e: Event): void => {
    if (e.type === 'intent' && e.intent.kind === 'place') intents.set(e.intent.id, e.intent.strategyId);
    else if (e.type === 'denied') denied.add(e.intent.id);
    else if (e.type === 'order') lastStatus.set(e.order.tag, e.order.status);
    else if (e.type === 'alert') {
      alerts[e.code] = (alerts[e.code] ?? 0) + 1;
      if (e.code === 'POSITION_MISMATCH') mismatches++;
    }
  };
  const start = async (): Promise<Daemon> => {
    store = new RedisStore({ url: o.redisUrl, prefix, retry: { baseMs: 10, maxMs: 100 } });
    daemon = await h.daemon({
      n: 0,
      store,
      observe,
      config: { strategies: strategyConfig, stateDir, shutdown: { onStop: 'none', atSessionEnd: 'none' }, recording: { enabled: false } },
      broker: { timeouts: { connectMs: 1000, requestMs: 1500, writeMs: 1000 } },
    });
    return daemon;
  };
  const stop = async (): Promise<void> => {
    await daemon?.stop('chaos: restart', 'none');
    await store?.close();
    daemon = undefined;
    store = undefined;
  };
  const flushKeys = async (): Promise<void> => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
  };

  try {
    await start();
    for (const [i, step] of steps.entries()) {
      const label = `step ${i + 1}/${steps.length} (${step}) at market +${Math.round((h.clock.now() - t0) / 60_000)} min`;
      say(label);
      await runStep(step);
      await h.clearFaults();
      // Settle: market time for retries, reconciles and the strategies' next candles.
      await h.elapse(60_000, 60_000);
      const found = await settledProblems(label);
      problems.push(...found);
      if (found.length) break;
    }
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    finalView = await h.brokerView().catch(() => undefined);
    await stop().catch(() => {});
    await flushKeys().catch(() => {});
    admin.disconnect();
    await h.close();
  }
  const ours = (finalView?.orders ?? []).filter((b) => b.tag !== undefined && parseTag(b.tag) !== undefined);
  return {
    seed: o.seed,
    steps,
    marketMs: h.clock.now() - t0,
    alerts,
    orders: ours.length,
    fills: (finalView?.trades ?? []).filter((t) => t.tag !== undefined && parseTag(t.tag) !== undefined).length,
    intents: intents.size,
    denials: denied.size,
    mismatches,
    restarts,
    problems,
  };

  async function runStep(step: ChaosStep): Promise<void> {
    switch (step) {
      case ChaosStep.TIMEOUTS:
        await h.faults({ timeout_rate: 0.25 });
        return h.elapse(faultMs, 90_000);
      case ChaosStep.LOST_ACKS:
        await h.faults({ lost_ack_rate: 0.5, lost_ack_mode: rnd() < 0.5 ? 'timeout' : '5xx' });
        return h.elapse(faultMs, 90_000);
      case ChaosStep.SERVER_ERRORS:
        await h.faults({ error_rate: 0.3 });
        return h.elapse(faultMs, 90_000);
      case ChaosStep.TERSE_BATCHED:
        await h.faults({ ws_terse_orders: true, ws_batch: true, ws_double_encode: rnd() < 0.5, ws_partial: true });
        await h.elapse(faultMs / 2);
        // A drop while terse: the reconnect's book read meets the terse ids already seen.
        await h.faults({ ws_drop: true });
        return h.elapse(faultMs / 2);
      case ChaosStep.WS_DROPS:
        for (let k = 0; k < 3; k++) {
          await h.faults({ ws_drop: true });
          await h.elapse(faultMs / 3);
        }
        return;
      case ChaosStep.WS_STALL: {
        const before = alerts['WS_STALLED'] ?? 0;
        await h.faults({ ws_stall: true });
        // Past the stall timeout (10 s of wall time at the paper speed), so the detector acts.
        await until(() => (alerts['WS_STALLED'] ?? 0) > before, 'a WS_STALLED alert while the streams are stalled', 90_000);
        // The order stream answers no pong either: orders could go unseen, so health is down.
        await until(() => daemon!.health.report().status === 'down', 'health down while the order stream is stalled', 90_000);
        await h.elapse(30_000);
        await h.faults({ ws_stall: false });
        // Every stall incident (each price shard, the order stream) resolved once frames flow again.
        await until(() => (alerts['WS_FLOWING'] ?? 0) >= (alerts['WS_STALLED'] ?? 0), 'WS_FLOWING for every WS_STALLED once frames flow again', 60_000);
        return;
      }
      case ChaosStep.TOKEN_REVOKE:
        await h.control('POST', '/sim/tokens/revoke', {});
        return h.elapse(faultMs);
      case ChaosStep.KILL_9:
        return killNine();
      case ChaosStep.STORE_FLUSH:
        // Stopped, store flushed (journal, run counter, strategy state gone), started again.
        await stop();
        await flushKeys();
        await start();
        restarts++;
        return h.elapse(faultMs);
      case ChaosStep.REDIS_RESTART: {
        const s = store!;
        await admin.client('KILL', 'ID', String(await s.clientId()));
        await flushKeys();
        await until(() => s.reconnectCount >= 1 && s.connectionState === 'ready', 'the store to reconnect');
        return h.elapse(faultMs);
      }
    }
  }

  /** A `tarang paper` child on the same store trades a while, is killed with SIGKILL, and a daemon here takes over. */
  async function killNine(): Promise<void> {
    await stop();
    // A dashboard token of its own: the daemons here (attached to the simulator) keep their TOTP
    // tokens to themselves, so a child sharing a session through the store could meet one the
    // daemons here have since replaced (live, every process shares the one session).
    const issued = (await h.control('POST', '/sim/tokens/dashboard')) as { data: { access_token: string } };
    const file = join(stateDir, 'chaos-child.yaml');
    writeFileSync(
      file,
      [
        'broker:',
        `  baseUrl: ${h.sim.baseUrl}`,
        `  wsUrl: ${h.sim.wsUrl}`,
        `  accessToken: ${issued.data.access_token}`,
        '  timeouts: { connectMs: 1000, requestMs: 1500, writeMs: 1000 }',
        'paper:',
        `  simulator: ${h.sim.baseUrl}`,
        `  wsUrl: ${h.sim.wsUrl}`,
        `  speed: ${speed}`,
        'strategies:',
        ...strategyConfig.map((s) => `  - { id: ${s.id}, strategy: sma-cross, params: { instrument: ${s.params.instrument}, interval: 1minute, fast: 2, slow: 4, qty: ${s.params.qty} } }`),
        `store: ${o.redisUrl}`,
        `storePrefix: "${prefix}"`,
        `stateDir: ${stateDir}`,
        'ops: { port: 0, token: test-token-0123456789abcdef }',
        'recording: { enabled: false }',
        'shutdown: { onStop: none, atSessionEnd: none }',
        'statusIntervalMs: 0',
        'checkpointSeconds: 0.2',
        'log: { level: info }',
      ].join('\n'),
    );
    const child = spawn(process.execPath, [join(root, 'bin', 'tarang.js'), 'paper', '--config', file, '--no-status'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (c: Buffer) => {
        err += String(c);
        if (err.includes('"msg":"daemon: subscribed to market data"')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`chaos: the child daemon exited (${code}) before trading:\n${err.slice(-2000)}`)));
    });
    // Killed at a seeded moment of its trading, orders possibly on the wire.
    await h.elapse(30_000 + Math.floor(rnd() * faultMs));
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
    await start();
    restarts++;
  }

  /** The checks, waited for until they hold (an order in flight settles); what still fails is returned. */
  async function settledProblems(label: string): Promise<string[]> {
    let last: string[] = [];
    try {
      await until(
        async () => {
          last = check(await h.brokerView());
          return last.length === 0;
        },
        'the daemon and the broker to agree',
        60_000,
      );
      return [];
    } catch {
      return last.map((p) => `after ${label}: ${p}`);
    }
  }

  function check(view: BrokerView): string[] {
    const out: string[] = [];
    const d = daemon!;
    const open = view.orders.filter((b) => b.tag !== undefined && parseTag(b.tag) !== undefined && !['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED'].includes(b.status));
    if (open.length) out.push(`orders still working at the broker: ${open.map((b) => `${b.tag} ${b.status}`).join(', ')}`);
    // Positions by strategy, from the broker's trades and the key each tag carries.
    const brokerNet = new Map<string, number>();
    for (const t of view.trades) {
      const parsed = t.tag === undefined ? undefined : parseTag(t.tag);
      if (!parsed) continue;
      const s = parsed.strategyKey === undefined ? undefined : byKey.get(parsed.strategyKey);
      if (!s) {
        out.push(`broker trade ${t.fillId} (${t.tag}) names no strategy of this run`);
        continue;
      }
      brokerNet.set(s.id, (brokerNet.get(s.id) ?? 0) + (t.side === 'BUY' ? t.qty : -t.qty));
    }
    const engine = engineOf(d);
    for (const s of STRATEGIES) {
      const net = brokerNet.get(s.id) ?? 0;
      if (net !== 0 && net !== s.qty) out.push(`${s.id}: position ${net} at the broker; a long-only sma-cross may hold only 0 or ${s.qty}`);
      const mine = engine.portfolio.viewFor(s.id).netQty(s.instrument);
      if (mine !== net) out.push(`${s.id}: tarang holds ${mine}, the broker ${net}`);
    }
    const seen = new Set<string>();
    for (const s of STRATEGIES) {
      for (const p of compareWithBroker(d, view, s.instrument).problems) {
        if (p.startsWith('net position') || seen.has(p)) continue;
        seen.add(p);
        out.push(p);
      }
      const instrumentNet = view.trades.filter((t) => t.instrument === s.instrument).reduce((n, t) => n + (t.side === 'BUY' ? t.qty : -t.qty), 0);
      if (engine.portfolio.netQty(s.instrument) !== instrumentNet) out.push(`${s.instrument}: tarang's net ${engine.portfolio.netQty(s.instrument)}, the broker's ${instrumentNet}`);
    }
    const atBroker = new Set(view.orders.map((b) => (b.tag === undefined ? '' : rootTag(b.tag))));
    for (const [id, strategyId] of intents) {
      // A write the broker never took (a 5xx, a timeout, then not in the book) ends as a REJECTED
      // order its strategy hears of: accounted for, as a denial is.
      if (atBroker.has(id) || denied.has(id) || lastStatus.get(id) === 'REJECTED') continue;
      out.push(`intent ${id} of ${strategyId} is neither at the broker, nor denied, nor a rejected order (last status on the bus: ${lastStatus.get(id) ?? 'none'})`);
    }
    if (mismatches > 0) out.push(`${mismatches} POSITION_MISMATCH alert(s) raised`);
    return out;
  }
}

export type { PaperHarness };
