/**
 * Walk-forward windows on the IST calendar: `train=6mo,test=1mo` (units d, w, mo, y).
 *
 * The test windows come first: back to back, each `test` long, the first starting `train` after the
 * start of the data, on calendar boundaries of the test's unit (the 1st of a month or year, a
 * Monday, any day for `d`): the data starts at the boundary on or before its first session when
 * that is within a week (a holiday on the 1st), else at the next boundary. Each test window's train window is the `train` just before it,
 * so a train window ends exactly where its test window starts: the optimiser never sees a candle of
 * the window it is judged on (no look-ahead), and consecutive test windows neither overlap nor leave
 * a gap (the stitched out-of-sample curve covers every day once). Windows are dates; a candle
 * belongs to the IST date its bar opens on. A window without a session on either side is dropped;
 * the last test window may end after the data (`partial`).
 */
import { DateTime } from 'luxon';
import { ConfigError } from '../../src/core/errors.js';
import { DAY_MS, IST_OFFSET_MS, istDate, istMidnight } from '../../src/core/time.js';

export const SPAN_UNITS = ['d', 'w', 'mo', 'y'] as const;
export type SpanUnit = (typeof SPAN_UNITS)[number];

export interface Span {
  readonly n: number;
  readonly unit: SpanUnit;
}

export interface WalkForwardSpec {
  readonly train: Span;
  readonly test: Span;
}

export interface WalkForwardWindow {
  /** 1-based. */
  readonly index: number;
  /** IST dates, `from` inclusive, `to` exclusive. */
  readonly trainFrom: string;
  readonly trainTo: string;
  readonly testFrom: string;
  readonly testTo: string;
  readonly trainSessions: number;
  readonly testSessions: number;
  /** The test window runs past the last session of the data. */
  readonly partial: boolean;
}

const SPAN = /^(\d+)\s*(d|w|mo|y)$/;

export function formatSpan(s: Span): string {
  return `${s.n}${s.unit}`;
}

function parseSpan(flag: string, key: string, text: string): Span {
  const m = SPAN.exec(text.trim());
  if (!m || Number(m[1]) <= 0) throw new ConfigError(`${flag}: ${key}=${text} is not a length; use a whole number and d, w, mo or y, e.g. ${key}=6mo or ${key}=120d`, { key, text });
  return { n: Number(m[1]), unit: m[2] as SpanUnit };
}

/** `train=6mo,test=1mo` (either order, both required). */
export function parseWalkForward(text: string, flag = '--walk-forward'): WalkForwardSpec {
  const parts: Record<string, string> = {};
  for (const item of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    const key = eq > 0 ? item.slice(0, eq).trim() : '';
    if (key !== 'train' && key !== 'test') throw new ConfigError(`${flag} ${text}: expected train=LENGTH,test=LENGTH (e.g. train=6mo,test=1mo), got ${JSON.stringify(item)}`, { text });
    if (parts[key] !== undefined) throw new ConfigError(`${flag} ${text}: ${key} is given twice`, { text });
    parts[key] = item.slice(eq + 1);
  }
  if (parts['train'] === undefined || parts['test'] === undefined) throw new ConfigError(`${flag} ${text}: give both, e.g. train=6mo,test=1mo`, { text });
  return { train: parseSpan(flag, 'train', parts['train']), test: parseSpan(flag, 'test', parts['test']) };
}

const date = (d: string): DateTime => DateTime.fromISO(d, { zone: 'utc' });
const iso = (d: DateTime): string => d.toISODate()!;
const duration = (s: Span, times = 1): Record<string, number> => ({ [{ d: 'days', w: 'weeks', mo: 'months', y: 'years' }[s.unit]]: s.n * times });

const UNIT_NAME = { d: 'day', w: 'week', mo: 'month', y: 'year' } as const;

/** The calendar boundary of `unit` on or before `d` (weeks start on Monday, ISO). */
function alignDown(d: DateTime, unit: SpanUnit): DateTime {
  return d.startOf(UNIT_NAME[unit]);
}

/** The first calendar boundary of `unit` on or after `d`. */
function alignUp(d: DateTime, unit: SpanUnit): DateTime {
  const start = alignDown(d, unit);
  return start.equals(d) ? d : start.plus({ [`${UNIT_NAME[unit]}s`]: 1 });
}

/** Session dates (`YYYY-MM-DD`, sorted, distinct): the IST dates candles open on. */
export function sessionDates(columns: ReadonlyArray<ArrayLike<number>>): string[] {
  const days = new Set<number>();
  for (const starts of columns) for (let i = 0; i < starts.length; i++) days.add(Math.floor((starts[i]! + IST_OFFSET_MS) / DAY_MS));
  return [...days].sort((a, b) => a - b).map((d) => istDate(d * DAY_MS - IST_OFFSET_MS));
}

function countIn(sessions: readonly string[], from: string, to: string): number {
  let n = 0;
  for (const s of sessions) if (s >= from && s < to) n++;
  return n;
}

export function planWindows(sessions: readonly string[], spec: WalkForwardSpec, flag = '--walk-forward'): WalkForwardWindow[] {
  if (sessions.length === 0) throw new ConfigError(`${flag}: the data has no candles`, {});
  const first = sessions[0]!;
  const last = sessions[sessions.length - 1]!;
  // The first train window starts on a calendar boundary: the one before the first session when
  // the data starts within a week of it (a holiday on the 1st), else the next one.
  const f = date(first);
  const down = alignDown(f, spec.test.unit);
  const trainStart = f.diff(down, 'days').days <= 7 ? down : alignUp(f, spec.test.unit);
  const firstTest = alignUp(trainStart.plus(duration(spec.train)), spec.test.unit);
  const out: WalkForwardWindow[] = [];
  for (let k = 0; ; k++) {
    const testStart = firstTest.plus(duration(spec.test, k));
    const testFrom = iso(testStart);
    if (testFrom > last) break;
    const testTo = iso(firstTest.plus(duration(spec.test, k + 1)));
    const trainFrom = iso(testStart.minus(duration(spec.train)));
    const trainSessions = countIn(sessions, trainFrom, testFrom);
    const testSessions = countIn(sessions, testFrom, testTo);
    if (trainSessions === 0 || testSessions === 0) continue;
    out.push({ index: out.length + 1, trainFrom, trainTo: testFrom, testFrom, testTo, trainSessions, testSessions, partial: testTo > addDay(last) });
  }
  if (out.length === 0) {
    throw new ConfigError(
      `${flag} train=${formatSpan(spec.train)},test=${formatSpan(spec.test)}: the data covers ${first} to ${last}, too short for one train window and a test window after it; use shorter windows or more data`,
      { first, last },
    );
  }
  return out;
}

function addDay(d: string): string {
  return iso(date(d).plus({ days: 1 }));
}

/** Epoch milliseconds of an IST date's midnight (window bounds for slicing candles). */
export function windowMs(d: string): number {
  return istMidnight(d);
}
