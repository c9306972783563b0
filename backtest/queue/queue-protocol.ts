/**
 * What a queued sweep puts on the BullMQ queue and what comes back: the job payload (which tarang
 * built it, the sweep's shared spec, one chunk of combinations), deterministic ids, the keys a
 * coordinator and its workers share, and a lossless text form of the answers. Both sides import
 * this file alone for the protocol.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/paths.js';
import type { Instrument } from '../../src/core/instruments.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import type { BacktestSettings } from '../runner.js';
import type { SweepParams, SweepReply } from '../sweep/sweep-types.js';
import type { SeriesRef } from './candle-publication.js';

export { QUEUE_NAME, checkQueueName } from './queue-name.js';

/** Bumped when the payload below changes shape. */
export const PROTOCOL = 1;

let version: string | undefined;

/** This tarang's version (package.json): a worker runs jobs built by the same version only. */
export function tarangVersion(): string {
  version ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

/** Everything the combinations of one sweep share: a SweepJob with the candles replaced by refs. */
export interface QueueSweepSpec {
  readonly series: readonly SeriesRef[];
  readonly instruments: readonly Instrument[];
  /** A registry name, or a strategy file's file: URL (the same path on every worker). */
  readonly strategy: string;
  /** sha256 of the strategy file, when it is a file: a worker whose copy differs refuses the job. */
  readonly strategySha256?: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly settings: BacktestSettings;
  readonly charges: string;
  readonly risk?: RiskConfigInput;
  /** A portfolio sweep's instruments (SweepJob.perInstrument). */
  readonly perInstrument?: readonly string[];
}

export interface QueueCombo {
  /** Combination number in the whole sweep's grid. */
  readonly index: number;
  readonly params: SweepParams;
}

export interface QueueJobData {
  readonly tarang: { readonly version: string; readonly protocol: number };
  readonly sweep: string;
  readonly spec: QueueSweepSpec;
  readonly combos: readonly QueueCombo[];
}

/** A job's return value: the answers, encoded by encodeReplies. */
export interface QueueJobResult {
  readonly replies: string;
}

/** The sweep's id: a hash of what determines its rows, so the same sweep gets the same job ids. */
export function sweepId(spec: QueueSweepSpec, grid: readonly SweepParams[], chunk: number): string {
  return createHash('sha256').update(JSON.stringify([tarangVersion(), PROTOCOL, spec, grid, chunk])).digest('hex').slice(0, 24);
}

/** BullMQ job ids may not contain ':'. */
export const jobId = (sweep: string, chunk: number): string => `sweep-${sweep}-${chunk}`;

/** Set by a coordinator that is cancelling: workers stop the sweep's jobs after their current combination. */
export const cancelKey = (sweep: string): string => `tarang:sweep:${sweep}:cancelled`;

/** Combinations per job: about 200 jobs for a big sweep, one combination each for a small one. */
export function defaultChunk(total: number): number {
  return Math.max(1, Math.min(50, Math.ceil(total / 200)));
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The URL with any password hidden, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return '(unparsable URL)';
  }
}

const SPECIAL = '~tarang';

/**
 * JSON that keeps what JSON loses (NaN, Infinity, -Infinity, undefined members), so a row that
 * travelled through Redis is the same row a local lane makes.
 */
export function encodeReplies(replies: readonly SweepReply[]): string {
  return JSON.stringify(replies, (_k, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) return { [SPECIAL]: String(v) };
    if (v === undefined) return { [SPECIAL]: 'undefined' };
    return v;
  });
}

function revive(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(revive);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === SPECIAL) {
    const s = o[SPECIAL];
    return s === 'undefined' ? undefined : Number(s);
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = revive(o[k]);
  return out;
}

export function decodeReplies(text: string): SweepReply[] {
  const v = revive(JSON.parse(text));
  if (!Array.isArray(v)) throw new Error('a sweep job answered something other than a list of rows');
  return v as SweepReply[];
}
