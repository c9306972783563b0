/**
 * The session recording's header (src/engine/recording/format.ts) as the daemon knows it once the
 * engine has reconciled: config (risk and execution as the engine got them: money in paise),
 * strategies with their resolved params and where their code came from (a file's sha256, so a
 * replay can say the code changed since), the instrument rows the strategies use, the funds,
 * positions and working orders at that moment, and the tag prefix and run of the engine's tags.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeError } from '../core/errors.js';
import type { CandleEvent } from '../core/events.js';
import type { InstrumentLookup } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import type { Paise } from '../core/money.js';
import type { Engine } from '../engine/engine.js';
import type { StrategySpec } from '../engine/engine-options.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordingHeaderInput } from '../engine/recording/format.js';
import { isStrategyPath, strategyFileUrl } from '../strategies/strategy-file.js';
import type { DaemonConfig } from './config.js';

export interface HeaderSources {
  readonly mode: 'live' | 'paper';
  readonly config: DaemonConfig;
  readonly baseDir: string;
  readonly engine: Engine;
  readonly specs: readonly StrategySpec[];
  readonly instruments: InstrumentLookup;
  /** The history candles the strategies were warmed up with. */
  readonly warmup: readonly CandleEvent[];
  /** The account as reconciled at start, before any strategy ran (captureStartState). */
  readonly start: StartState;
}

/** Funds, positions and working orders at start. */
export interface StartState {
  readonly ts: number;
  readonly funds: Paise | undefined;
  readonly positions: ReadonlyArray<{ readonly instrument: string; readonly product: string; readonly netQty: number; readonly openValue: Paise }>;
  readonly openOrders: number;
}

/**
 * Reads the account as the engine reconciled it, before its strategies start (Engine.start's
 * `beforeStrategies`): read later, the header would show the session's own first trades as if the
 * account had started with them. The funds are the broker's figure, read now.
 */
export async function captureStartState(engine: Engine, log: Logger): Promise<StartState> {
  let funds: Paise | undefined;
  try {
    funds = (await engine.venue.funds()).available;
  } catch (err) {
    log.warn({ err }, 'recording: the funds at start could not be read; the header leaves them out');
  }
  return {
    ts: engine.clock.now(),
    funds,
    positions: engine.portfolio.positions().map((p) => ({ instrument: p.instrument, product: p.product, netQty: p.netQty, openValue: p.openValue })),
    openOrders: engine.orders.openCount(),
  };
}

export function recordingHeader(s: HeaderSources): RecordingHeaderInput {
  const { engine, config: c } = s;
  const entries = new Map(c.strategies.map((e) => [e.id, e]));
  const strategies = s.specs.map((spec) => {
    const entry = entries.get(spec.id);
    const name = entry?.strategy ?? ('definition' in spec ? spec.definition.name : spec.id);
    const isFile = isStrategyPath(name);
    const ref = isFile ? strategyFileUrl(name, s.baseDir) : name;
    const sha256 = isFile ? fileHash(ref) : undefined;
    return { id: spec.id, strategy: name, ref, params: 'params' in spec ? spec.params : (entry?.params ?? {}), ...(sha256 ? { sha256 } : {}) };
  });
  const rows = engine.instruments.flatMap((id) => {
    const i = s.instruments.get(id);
    return i ? [i] : [];
  });
  const { funds, positions, openOrders } = s.start;
  const { prefix, run } = engine.tagSource;
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    ts: engine.clock.now(),
    mode: s.mode,
    venue: engine.venue.name,
    tagPrefix: prefix,
    run,
    ticks: c.recording.ticks,
    strategies,
    config: {
      risk: c.risk as Record<string, unknown>,
      execution: c.execution as Record<string, unknown>,
      shutdown: c.shutdown as Record<string, unknown>,
      ...(s.mode === 'paper' && c.paper ? { paper: c.paper as Record<string, unknown> } : {}),
    },
    instruments: rows.map((i) => ({ ...i })),
    ...(funds !== undefined ? { funds: { available: funds } } : {}),
    positions: positions.map((p) => ({ ...p })),
    openOrders,
    warmup: [...s.warmup],
  };
}

/**
 * The header as the recorder asks for it (at each file it opens). The recording must never take
 * the trading process down: a header that cannot be built is logged, and the file says so (a
 * replay then refuses it with that reason).
 */
export function headerProvider(s: HeaderSources, log: Logger): () => RecordingHeaderInput {
  return () => {
    try {
      return recordingHeader(s);
    } catch (e) {
      log.error({ err: e }, 'daemon: cannot build the recording header; this recording will not replay');
      return { format: RECORDING_FORMAT, version: RECORDING_VERSION, incomplete: `the recording header could not be built: ${describeError(e)}` } as unknown as RecordingHeaderInput;
    }
  };
}

function fileHash(url: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(fileURLToPath(url))).digest('hex');
  } catch {
    return undefined;
  }
}
