/**
 * Intraday square-off (the broker's RMS, not the exchange's): near the close the broker cancels
 * open INTRADAY orders and closes open INTRADAY positions with market orders it tags itself; from
 * then on it refuses INTRADAY orders that open or add to a position. The time is per segment,
 * dated data in config/market-rules/square-off.yaml.
 *
 * One rule, three users: the simulator's matching engine squares off and refuses with these words
 * (matching/square-off.ts), risk denies the same orders with the same words from the engine's
 * earlier intraday exit on (checks/intraday-cutoff.ts), and the backtest plays the square-off at
 * the same minute through the same matching engine.
 */
import { z } from 'zod';
import { SESSION_CLOSE_MINUTE } from '../../core/candles.js';
import type { Product, Side } from '../../core/enums.js';
import type { Instrument } from '../../core/instruments.js';
import { formatMinuteOfDay, timeOfDay } from '../../core/time-of-day.js';
import { MINUTE_MS, istDayStart } from '../../core/time.js';
import { readRuleFile, type RuleFileHeader } from './rule-file.js';

/** The remarks the broker's own square-off orders carry (how tarang tells them from its own). */
export const SQUARE_OFF_REMARKS = 'BROKER-SQUAREOFF';

export const SquareOffSegment = { EQUITY: 'EQUITY', FNO: 'FNO', CURRENCY: 'CURRENCY' } as const;
export type SquareOffSegment = (typeof SquareOffSegment)[keyof typeof SquareOffSegment];
export const SQUARE_OFF_SEGMENTS: readonly SquareOffSegment[] = Object.values(SquareOffSegment);

/** Minutes after IST midnight, per segment. */
export type SquareOffTimes = Readonly<Record<SquareOffSegment, number>>;

/** `HH:MM` per segment, as the rule file and configs write them (overrides may name some). */
export const SquareOffTimesInput = z
  .object({ EQUITY: timeOfDay.optional(), FNO: timeOfDay.optional(), CURRENCY: timeOfDay.optional() })
  .strict();
export type SquareOffTimesInput = z.input<typeof SquareOffTimesInput>;

const FileBody = z.object({ segments: z.object({ EQUITY: timeOfDay, FNO: timeOfDay, CURRENCY: timeOfDay }).strict() });

/** The rule file: times, with when and where they were checked. */
export function squareOffRuleFile(): RuleFileHeader & { readonly segments: SquareOffTimes } {
  return readRuleFile('square-off', FileBody);
}

/** The file's times with `overrides` (parsed with `SquareOffTimesInput`: minutes per segment) on top. */
export function squareOffTimes(overrides?: z.output<typeof SquareOffTimesInput>): SquareOffTimes {
  const base = squareOffRuleFile().segments;
  if (!overrides) return base;
  const o = overrides;
  return { EQUITY: o.EQUITY ?? base.EQUITY, FNO: o.FNO ?? base.FNO, CURRENCY: o.CURRENCY ?? base.CURRENCY };
}

/** The square-off segment of a tradable instrument (an index has none). */
export function squareOffSegment(i: Instrument): SquareOffSegment | undefined {
  if (i.segment === 'EQUITY' || i.segment === 'FNO' || i.segment === 'CURRENCY') return i.segment;
  return undefined;
}

/** Epoch ms of `minute` (after IST midnight) on the IST day of `ts`. */
export function atMinuteOfDay(ts: number, minute: number): number {
  return istDayStart(ts) + minute * MINUTE_MS;
}


/**
 * When a session [open, close) squares `minute` off: at that minute when the session holds it;
 * in a session that does not (a Muhurat evening, a segment whose time is past this calendar's
 * close) as long before its close as the time is before 15:30, at least one minute, not before
 * the open.
 */
export function squareOffWithin(minute: number, open: number, close: number): number {
  const at = atMinuteOfDay(open, minute);
  if (at >= open && at < close) return at;
  return Math.max(open, close - Math.max(1, SESSION_CLOSE_MINUTE - minute) * MINUTE_MS);
}

/** Only INTRADAY (MIS) is squared off; CNC and MARGIN (NRML) positions are carried. */
export function isSquaredOffProduct(p: Product): boolean {
  return p === 'INTRADAY';
}

/**
 * Whether an order of `side` x `qty` against a net position `net` opens or adds to a position
 * (true) or only reduces it (false). Turning a long into a short opens one.
 */
export function opensOrAdds(side: Side, qty: number, net: number): boolean {
  if (side === 'BUY') return !(net < 0 && qty <= -net);
  return !(net > 0 && qty <= net);
}

/** The refusal of an INTRADAY order that opens or adds to a position at or after `minute`. */
export function intradayCutoffMessage(i: Instrument, minute: number): string {
  return `INTRADAY orders that open or add to a position in ${i.tradingSymbol} are not accepted after the intraday square-off time ${formatMinuteOfDay(minute)} IST`;
}

/** Why the broker cancelled an open INTRADAY order at its square-off. */
export function squareOffCancelReason(minute: number): string {
  return `Cancelled by the broker: intraday square-off at ${formatMinuteOfDay(minute)} IST`;
}

export function isBrokerSquareOff(remarks: string | undefined): boolean {
  return remarks === SQUARE_OFF_REMARKS;
}

/** The engine exits INTRADAY positions this long before the broker's square-off, by default. */
export const DEFAULT_EXIT_LEAD_MINUTES = 5;

/**
 * `shutdown.intradayExitAt`: when the engine exits its strategies' INTRADAY positions itself,
 * before the broker does: `off`, one `HH:MM` for every segment, or `HH:MM` per segment (the
 * others keep the default, `DEFAULT_EXIT_LEAD_MINUTES` before their square-off).
 */
export const IntradayExitAtInput = z.union([z.literal('off'), timeOfDay, SquareOffTimesInput]);
export type IntradayExitAtInput = z.input<typeof IntradayExitAtInput>;
/** Parsed (`IntradayExitAtInput.parse`): 'off', one minute of the day, or minutes per segment. */
export type IntradayExitAt = z.output<typeof IntradayExitAtInput>;

/** The engine's exit minute per segment, or undefined when off. A time after the square-off is an error. */
export function intradayExitTimes(parsed: IntradayExitAt | undefined, broker: SquareOffTimes): SquareOffTimes | undefined {
  const v = parsed ?? {};
  if (v === 'off') return undefined;
  const out = {} as Record<SquareOffSegment, number>;
  for (const seg of SQUARE_OFF_SEGMENTS) {
    const t = typeof v === 'number' ? v : (v[seg] ?? broker[seg] - DEFAULT_EXIT_LEAD_MINUTES);
    if (t > broker[seg]) {
      throw new RangeError(`intradayExitAt: ${formatMinuteOfDay(t)} for ${seg} is after the broker's square-off at ${formatMinuteOfDay(broker[seg])} IST; the exit must come first`);
    }
    out[seg] = t;
  }
  return out;
}

/** Every segment's square-off inside the session [open, close), in time order. */
export function squareOffsIn(times: SquareOffTimes, open: number, close: number): { readonly segment: SquareOffSegment; readonly at: number }[] {
  return SQUARE_OFF_SEGMENTS.map((segment) => ({ segment, at: squareOffWithin(times[segment], open, close) })).sort((a, b) => a.at - b.at);
}
