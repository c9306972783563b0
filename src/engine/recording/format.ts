/**
 * The session recording's format: one JSON object per line. The first line of every file (and of
 * every later session appended to the same day's file) is a header naming the format and its
 * version and holding what a replay needs to run the session again: the config and strategy
 * params, the instrument rows used, the funds and positions at start, the tag prefix and run
 * number of the engine's client tags. Every other line is one bus event (`src/core/events.ts`).
 *
 * Written by the daemon (src/daemon/recorder.ts), read by `tarang replay`, `tarang backtest
 * --from-recording` and any later tool (reader.ts). It lives in the engine layer because both
 * the daemon and the backtester (which may not import each other) need it.
 *
 * Version history:
 *   (none) recordings before 2026-11: events only, no header; cannot be replayed.
 *   1      header line first; events as in src/core/events.ts.
 */
import { z } from 'zod';
import { TarangError } from '../../core/errors.js';

export const RECORDING_FORMAT = 'tarang-recording' as const;
export const RECORDING_VERSION = 1 as const;

export class RecordingError extends TarangError {
  readonly code = 'RECORDING_INVALID' as const;
}

const paise = z.number().int();

/** One instrument row, as the daemon's instrument table held it (core/instruments.ts `Instrument`). */
export const RecordedInstrumentSchema = z
  .object({
    id: z.string().min(1),
    exchange: z.enum(['NSE', 'BSE']),
    segment: z.enum(['EQUITY', 'FNO', 'CURRENCY', 'INDEX']),
    securityId: z.string(),
    kind: z.enum(['EQUITY', 'INDEX', 'FUTIDX', 'FUTSTK', 'OPTIDX', 'OPTSTK', 'OTHER']),
    tradingSymbol: z.string(),
    symbol: z.string(),
    lotSize: z.number().int().positive(),
    tickSize: paise.positive(),
    expiry: z.string().optional(),
    strike: paise.optional(),
    optionType: z.enum(['CE', 'PE']).optional(),
    series: z.string().optional(),
    displayName: z.string().optional(),
  })
  .passthrough();

export const RecordedStrategySchema = z.object({
  id: z.string().min(1),
  /** As written in the config: a registry name or a path. */
  strategy: z.string().min(1),
  /** A path resolved to an absolute file URL when the config named a file (registry names stay as they are). */
  ref: z.string().min(1),
  /** The parameters after symbol references were resolved to scrip codes. */
  params: z.unknown(),
  /** sha256 of the strategy file when it was a file: replay warns when the code changed since. */
  sha256: z.string().optional(),
});
export type RecordedStrategy = z.output<typeof RecordedStrategySchema>;

export const RecordingHeaderSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.number().int().positive(),
  /** When the header was written (clock time, epoch ms). */
  ts: z.number(),
  mode: z.enum(['live', 'paper']),
  venue: z.string(),
  /** The engine's client tags are `<tagPrefix><run base 36>-<seq base 36>`. */
  tagPrefix: z.string(),
  run: z.number().int().nonnegative(),
  /** Whether ticks are recorded (`recording.ticks`); replay needs them. */
  ticks: z.boolean(),
  strategies: z.array(RecordedStrategySchema),
  config: z.object({
    risk: z.record(z.string(), z.unknown()),
    execution: z.record(z.string(), z.unknown()),
    shutdown: z.record(z.string(), z.unknown()),
    /** Paper sessions: the simulator's settings (speed, seed, capital, market). */
    paper: z.record(z.string(), z.unknown()).optional(),
  }),
  instruments: z.array(RecordedInstrumentSchema),
  /** The venue's funds once the engine had reconciled (undefined when the venue gave none). */
  funds: z.object({ available: paise, used: paise.optional() }).optional(),
  /** Positions the venue showed at start (a replay starts flat and says so when this is not empty). */
  positions: z.array(z.object({ instrument: z.string(), product: z.string(), netQty: z.number().int(), openValue: paise })),
  /** Working orders at start (carried over a restart): a replay does not have them. */
  openOrders: z.number().int().nonnegative(),
  /** The history candles the strategies were warmed up with before the first tick (candle events). */
  warmup: z
    .array(
      z.object({ type: z.literal('candle'), ts: z.number(), instrument: z.string(), interval: z.string(), start: z.number(), open: paise, high: paise, low: paise, close: paise, volume: z.number(), oi: z.number().optional() }),
    )
    .default([]),
});
export type RecordingHeader = z.output<typeof RecordingHeaderSchema>;
export type RecordingHeaderInput = z.input<typeof RecordingHeaderSchema>;

/** Whether a parsed JSON line is a header (of any version) rather than an event. */
export function isHeaderLine(v: unknown): v is { format: string; version: unknown } {
  return typeof v === 'object' && v !== null && (v as { format?: unknown }).format === RECORDING_FORMAT;
}
