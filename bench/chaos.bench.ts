/**
 * The chaos run, long (#14): the paper daemon against the simulator through a seeded schedule of
 * faults (every kind once, then more drawn at random) over hours of market time, with the checks
 * of test/daemon/support/chaos.ts after every step. Figures: market hours covered, steps and
 * restarts, incidents (alerts raised and resolved), orders and fills at the broker, intents and
 * denials, and the mismatches found (target 0) and problems (target 0: a problem fails the section,
 * with the seed to replay it).
 *
 * Knobs (environment): TARANG_CHAOS_SEED (default: from the time, printed), TARANG_CHAOS_STEPS
 * (extra random steps after the first round, default 40), TARANG_CHAOS_SPEED (clock speed cap,
 * default 30), REDIS_URL (default redis://127.0.0.1:6379/15; keys under a unique prefix, removed after).
 */
import { runChaos } from '../test/daemon/support/chaos.js';
import type { BenchResult } from './run.js';

export const name = 'chaos (paper daemon, seeded faults, hours of market time)';

export async function run(): Promise<BenchResult[]> {
  // A fresh seed per bench run unless one is given (printed, to replay).
  const seed = Number(process.env['TARANG_CHAOS_SEED'] ?? Date.now() % 1_000_000_007);
  const extraSteps = Number(process.env['TARANG_CHAOS_STEPS'] ?? 40);
  const speed = Number(process.env['TARANG_CHAOS_SPEED'] ?? 30);
  const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';
  process.stdout.write(`  seed ${seed} (replay: TARANG_CHAOS_SEED=${seed} npm run bench -- chaos)\n`);
  const started = performance.now();
  const r = await runChaos({ seed, extraSteps, speed, redisUrl, progress: process.env['TARANG_BENCH_DEBUG'] ? (l) => process.stderr.write(`${l}\n`) : undefined });
  const wallS = (performance.now() - started) / 1000;
  if (r.problems.length > 0) throw new Error(`chaos seed ${seed}: ${r.problems.length} problem(s):\n${r.problems.join('\n')}\nsteps: ${r.steps.join(', ')}`);
  const incidents = ['WS_STALLED', 'DISCONNECTED', 'STORE_DISCONNECTED', 'RECONNECTS_REPEATED', 'TOTP_LOCKOUT', 'POSITION_MISMATCH', 'TRADING_HALTED'].reduce((n, c) => n + (r.alerts[c] ?? 0), 0);
  const alertNote = Object.entries(r.alerts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  return [
    { metric: 'market time covered', value: r.marketMs / 3_600_000, unit: 'h', note: `${wallS.toFixed(0)} s wall` },
    { metric: 'fault steps', value: r.steps.length, unit: 'steps', note: `restarts ${r.restarts}` },
    { metric: 'incidents raised (critical/warn alerts)', value: incidents, unit: 'alerts', note: alertNote },
    { metric: 'orders at the broker', value: r.orders, unit: 'orders', note: `fills ${r.fills}` },
    { metric: 'intents (in-process daemons)', value: r.intents, unit: 'intents', note: `denied ${r.denials}` },
    { metric: 'position mismatches found', value: r.mismatches, unit: 'mismatches', note: 'must be 0' },
    { metric: 'problems (lost, doubled or wrong views)', value: r.problems.length, unit: 'problems', note: 'must be 0 (any fails the section)' },
  ];
}
