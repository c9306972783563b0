/**
 * `tarang replay` as one call: a session recording in, the session run again through the backtest
 * engine (tick-runner.ts) and the diff against what happened (diff.ts) out, with notes on what a
 * replay cannot reproduce (a restart's positions and working orders, changed strategy code, a
 * recording cut short).
 *
 * The strategies, params, risk and execution settings come from the recording's header, or from
 * `override` (`--config FILE`): "what would this config have done on that day".
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, describeError } from '../../src/core/errors.js';
import { InstrumentTable, type Instrument } from '../../src/core/instruments.js';
import type { Logger } from '../../src/core/log.js';
import type { ExecutionConfigInput } from '../../src/adapters/execution/config.js';
import type { StrategySpec } from '../../src/engine/engine-options.js';
import { openRecording, type OpenedRecording, type RecordingSource } from '../../src/engine/recording/reader.js';
import type { RecordingHeader } from '../../src/engine/recording/format.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import type { IntradayExitAt } from '../../src/risk/rules/square-off.js';
import { resolveStrategy } from '../../src/strategies/strategy-file.js';
import { diffSessions, type DiffOptions, type ReplayDiff } from './diff.js';
import { LiveSession } from './live-session.js';
import { runTickReplay, type ShutdownAction, type TickReplayRun } from './tick-runner.js';

export interface ReplayOverride {
  /** Where the settings came from (named in the report). */
  readonly source: string;
  readonly strategies: readonly StrategySpec[];
  readonly risk: RiskConfigInput;
  readonly execution: ExecutionConfigInput;
  readonly onStop?: ShutdownAction;
  readonly intradayExitAt?: IntradayExitAt;
}

export interface ReplayRequest {
  readonly source: RecordingSource;
  readonly override?: ReplayOverride;
  /** Replay a recording whose last line is torn, up to the line before. */
  readonly allowTruncated?: boolean;
  readonly diff?: DiffOptions;
  readonly log?: Logger;
}

export interface ReplayOutcome {
  readonly source: string;
  readonly header: RecordingHeader;
  readonly run: TickReplayRun;
  readonly live: LiveSession;
  readonly diff: ReplayDiff;
  /** Things the reader should know about this replay. */
  readonly notes: readonly string[];
  /** Where the settings came from: `the recording` or the --config file. */
  readonly settingsFrom: string;
}

/** The recorded strategies, their code loaded again (a changed file is noted). */
export async function recordedStrategies(header: RecordingHeader, notes: string[]): Promise<StrategySpec[]> {
  const specs: StrategySpec[] = [];
  for (const s of header.strategies) {
    let definition;
    try {
      ({ definition } = await resolveStrategy(s.ref));
    } catch (e) {
      throw new ConfigError(`recording header: strategy ${s.id} (${s.strategy}): ${describeError(e)}`, { strategy: s.id });
    }
    if (s.sha256 && s.ref.startsWith('file:')) {
      let now: string | undefined;
      try {
        now = createHash('sha256').update(readFileSync(fileURLToPath(s.ref))).digest('hex');
      } catch {
        now = undefined;
      }
      if (now !== s.sha256) notes.push(`strategy ${s.id}: ${s.strategy} changed since the session was recorded; the replay runs today's code`);
    }
    specs.push({ id: s.id, definition, params: s.params });
  }
  return specs;
}

export async function replaySession(req: ReplayRequest): Promise<ReplayOutcome> {
  const notes: string[] = [];
  const recording: OpenedRecording = await openRecording(req.source, {
    torn: req.allowTruncated ? 'skip' : 'error',
    onTorn: (line) => notes.push(`line ${line} is torn (the process stopped while writing it): replayed up to line ${line - 1}`),
  });
  const h = recording.header;
  if (!h.ticks) throw new ConfigError(`${recording.source}:1: this session was recorded without ticks (recording.ticks: false); a replay needs them`, { source: recording.source });
  if (h.positions.length > 0) notes.push(`the session started with ${h.positions.length} open position(s) (${h.positions.map((p) => `${p.instrument} ${p.netQty}`).join(', ')}); the replay starts flat`);
  if (h.openOrders > 0) notes.push(`the session started with ${h.openOrders} working order(s) from before; the replay does not have them`);
  const strategies = req.override ? req.override.strategies : await recordedStrategies(h, notes);
  const table = new InstrumentTable(h.instruments as Instrument[]);
  const live = new LiveSession(h.instruments.map((i) => i.id));
  const cash = h.funds?.available;
  if (cash === undefined) throw new ConfigError(`${recording.source}:1: the header holds no funds at start; cannot size the replay's account`, { source: recording.source });
  const risk = (req.override?.risk ?? h.config.risk) as RiskConfigInput;
  const execution = (req.override?.execution ?? h.config.execution) as ExecutionConfigInput;
  const onStop = req.override?.onStop ?? (h.config.shutdown['onStop'] as ShutdownAction | undefined) ?? 'none';
  const intradayExitAt = req.override?.intradayExitAt ?? (h.config.shutdown['intradayExitAt'] as IntradayExitAt | undefined);
  const run = await runTickReplay({
    recording,
    instruments: table,
    strategies,
    cash,
    mode: 'replay',
    risk,
    execution,
    onStop,
    ...(intradayExitAt !== undefined ? { intradayExitAt } : {}),
    ...(typeof risk.marketProtectionPct === 'number' ? { marketProtectionPct: risk.marketProtectionPct } : {}),
    onRecorded: (r, m) => live.observe(r, m),
    ...(req.log ? { log: req.log } : {}),
  });
  live.finish();
  if (recording.laterSessions() > 0) notes.push(`the file holds ${recording.laterSessions()} later session(s) after line ${recording.lastLine()} (the daemon restarted that day); only the first was replayed`);
  if (!live.stopped) notes.push(`the recording ends at line ${live.lines} without the daemon stopping: the session was cut short (killed, or still running)`);
  if (run.ticks === 0) notes.push('the recording holds no ticks: nothing was replayed');
  // A paper session on an accelerated clock sees its real latencies multiplied in market time:
  // the default tolerances scale with its speed (2 s and 5 s at x1; a real 50 ms and 100 ms above x40).
  const speed = h.mode === 'paper' && typeof h.config.paper?.['speed'] === 'number' ? h.config.paper['speed'] : 1;
  const diff = diffSessions(live, run, { timeToleranceMs: Math.max(2_000, 50 * speed), lateMs: Math.max(5_000, 100 * speed), ...req.diff });
  return { source: recording.source, header: h, run, live, diff, notes, settingsFrom: req.override?.source ?? 'the recording' };
}
