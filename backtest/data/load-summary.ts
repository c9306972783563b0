/**
 * What a loader did to the data, so a user can trust (or distrust) a backtest: rows read, rows
 * dropped and why, values repaired and how, per instrument. `describeSummary` renders it for
 * people; the JSON report embeds it as is.
 */
import type { Interval } from '../../src/core/candles.js';
import { formatIst } from '../../src/core/time.js';

export interface BadRow {
  readonly line: number;
  readonly reason: string;
  readonly text: string;
}

export interface SeriesSummary {
  readonly instrument: string;
  readonly interval: Interval;
  readonly candles: number;
  /** Start of the first and last candle, ISO +05:30 (absent when empty). */
  readonly first?: string;
  readonly last?: string;
  readonly sessions: number;
  /** Sessions with under half the usual number of bars (special or truncated sessions). */
  readonly shortSessions: readonly string[];
}

export interface DropCounts {
  blankLines: number;
  badRows: number;
  /** Exact repeats of an earlier row (same instrument and start, same values). */
  duplicates: number;
  /** Same instrument and start but different values: the first row in file order is kept. */
  conflictingDuplicates: number;
  /** Stale bars after the close or before the open (see `session` option). */
  outsideSession: number;
  /** Outside the requested from/to window. */
  outsideWindow: number;
}

export interface RepairCounts {
  /** Rows that came before an earlier row's time; the series was sorted. */
  outOfOrder: number;
  /** high < low: the two were swapped. */
  highLowSwapped: number;
  /** open or close outside [low, high]: the range was widened to include them. */
  rangeWidened: number;
  /** Prices with more than two decimals, rounded half away from zero to the paisa. */
  roundedToPaise: number;
}

export interface LoadSummary {
  readonly source: string;
  readonly rows: number;
  readonly candles: number;
  readonly instruments: readonly SeriesSummary[];
  readonly dropped: DropCounts;
  readonly repaired: RepairCounts;
  /** The first bad rows (up to 20) with their line numbers. */
  readonly badRows: readonly BadRow[];
  /** Human sentences about specific repairs (e.g. which day's after-hours bars were dropped). */
  readonly notes: readonly string[];
}

export function emptyDrops(): DropCounts {
  return { blankLines: 0, badRows: 0, duplicates: 0, conflictingDuplicates: 0, outsideSession: 0, outsideWindow: 0 };
}

export function emptyRepairs(): RepairCounts {
  return { outOfOrder: 0, highLowSwapped: 0, rangeWidened: 0, roundedToPaise: 0 };
}

export function isoOrUndefined(ts: number | undefined): string | undefined {
  return ts === undefined ? undefined : formatIst(ts);
}

const DROP_TEXT: Record<keyof DropCounts, string> = {
  blankLines: 'blank lines',
  badRows: 'bad rows skipped',
  duplicates: 'exact duplicate rows',
  conflictingDuplicates: 'conflicting duplicates (first kept)',
  outsideSession: 'stale bars outside the session',
  outsideWindow: 'rows outside --from/--to',
};

const REPAIR_TEXT: Record<keyof RepairCounts, string> = {
  outOfOrder: 'rows out of time order (sorted)',
  highLowSwapped: 'rows with high < low (swapped)',
  rangeWidened: 'rows with open/close outside high-low (range widened)',
  roundedToPaise: 'prices with sub-paisa decimals (rounded to the paisa)',
};

/** A few lines for a terminal. */
export function describeSummary(s: LoadSummary): string {
  const lines = [`${s.source}: ${s.rows} rows -> ${s.candles} candles, ${s.instruments.length} instrument(s)`];
  for (const i of s.instruments.slice(0, 10)) {
    lines.push(`  ${i.instrument} ${i.interval}: ${i.candles} candles, ${i.first ?? '-'} .. ${i.last ?? '-'}, ${i.sessions} sessions`);
  }
  if (s.instruments.length > 10) lines.push(`  ... and ${s.instruments.length - 10} more`);
  for (const [k, v] of Object.entries(s.dropped) as Array<[keyof DropCounts, number]>) {
    if (v > 0 && k !== 'blankLines') lines.push(`  dropped ${v} ${DROP_TEXT[k]}`);
  }
  for (const [k, v] of Object.entries(s.repaired) as Array<[keyof RepairCounts, number]>) {
    if (v > 0) lines.push(`  repaired ${v} ${REPAIR_TEXT[k]}`);
  }
  for (const n of s.notes) lines.push(`  note: ${n}`);
  for (const b of s.badRows.slice(0, 5)) lines.push(`  bad row at line ${b.line}: ${b.reason}`);
  return lines.join('\n');
}
