/**
 * The NSE trading calendar: which days trade, and when. The regular session is 09:15-15:30 IST on
 * weekdays that are not holidays; special sessions (Saturday budget/DR sessions, Diwali Muhurat)
 * override that for their date. Holidays are data (config/calendar/nse.yaml), not code, so a new
 * exchange circular is a one-file change.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { configPath } from './paths.js';
import { DAY_MS, addDays, istDate, istDateTime, istMidnight, istWeekday } from './time.js';
import { formatZodIssues } from './zod-issues.js';
import { yamlDate } from './date-input.js';

export interface Session {
  /** `YYYY-MM-DD` (IST). */
  readonly date: string;
  /** Epoch ms of the open and of the close (exclusive). */
  readonly open: number;
  readonly close: number;
  readonly special?: string;
}

export interface SpecialSession {
  readonly date: string;
  readonly open: string;
  readonly close: string;
  readonly note?: string;
}

export interface CalendarData {
  readonly holidays: Iterable<string>;
  readonly specialSessions?: Iterable<SpecialSession>;
  readonly regularOpen?: string;
  readonly regularClose?: string;
}

export class MarketCalendar {
  private readonly holidays: ReadonlySet<string>;
  private readonly special: ReadonlyMap<string, SpecialSession>;
  private readonly regularOpen: string;
  private readonly regularClose: string;

  constructor(data: CalendarData) {
    this.holidays = new Set(data.holidays);
    this.special = new Map([...(data.specialSessions ?? [])].map((s) => [s.date, s]));
    this.regularOpen = data.regularOpen ?? '09:15';
    this.regularClose = data.regularClose ?? '15:30';
  }

  isHoliday(date: string): boolean {
    return this.holidays.has(date);
  }

  /** True when the date has any session (regular or special). */
  isTradingDay(date: string): boolean {
    return this.session(date) !== undefined;
  }

  /** The session on an IST date, or undefined on weekends and holidays without a special session. */
  session(date: string): Session | undefined {
    const sp = this.special.get(date);
    if (sp) return { date, open: istDateTime(date, sp.open), close: istDateTime(date, sp.close), special: sp.note ?? 'special session' };
    const wd = istWeekday(istMidnight(date));
    if (wd >= 6 || this.holidays.has(date)) return undefined;
    return { date, open: istDateTime(date, this.regularOpen), close: istDateTime(date, this.regularClose) };
  }

  /** The session containing `ts` ([open, close)), if the market is open then. */
  sessionAt(ts: number): Session | undefined {
    const s = this.session(istDate(ts));
    return s && ts >= s.open && ts < s.close ? s : undefined;
  }

  isOpen(ts: number): boolean {
    return this.sessionAt(ts) !== undefined;
  }

  /** The session in progress at `ts`, else the next one to open after it. */
  currentOrNextSession(ts: number): Session {
    let date = istDate(ts);
    for (let i = 0; i < 30; i++) {
      const s = this.session(date);
      if (s && ts < s.close) return s;
      date = addDays(date, 1);
    }
    throw new RangeError(`no trading session within 30 days after ${istDate(ts)}`);
  }

  /** The session in progress at `ts`, else the last one that closed before it. */
  currentOrPreviousSession(ts: number): Session {
    let date = istDate(ts);
    for (let i = 0; i < 30; i++) {
      const s = this.session(date);
      if (s && ts >= s.open) return s;
      date = addDays(date, -1);
    }
    throw new RangeError(`no trading session within 30 days before ${istDate(ts)}`);
  }

  nextTradingDay(date: string): string {
    return this.step(date, 1);
  }

  previousTradingDay(date: string): string {
    return this.step(date, -1);
  }

  /** Trading days in [from, to], both `YYYY-MM-DD`, ascending. */
  tradingDays(from: string, to: string): string[] {
    const out: string[] = [];
    const end = istMidnight(to);
    for (let t = istMidnight(from); t <= end; t += DAY_MS) {
      const d = istDate(t);
      if (this.isTradingDay(d)) out.push(d);
    }
    return out;
  }

  private step(date: string, dir: 1 | -1): string {
    let d = date;
    for (let i = 0; i < 30; i++) {
      d = addDays(d, dir);
      if (this.isTradingDay(d)) return d;
    }
    throw new RangeError(`no trading day within 30 days ${dir > 0 ? 'after' : 'before'} ${date}`);
  }
}

const dateString = z
  .union([z.string(), z.date()])
  .transform((v) => (typeof v === 'string' ? v : yamlDate(v)))
  .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'));
const hhmm = z.string().regex(/^\d{2}:\d{2}$/, 'expected HH:MM');

const calendarFileSchema = z.object({
  last_checked: z.string(),
  regular_session: z.object({ open: hhmm, close: hhmm }),
  holidays: z.record(z.string(), z.array(dateString)),
  special_sessions: z.array(z.object({ date: dateString, open: hhmm, close: hhmm, note: z.string().optional() })).default([]),
});

/** Parses a calendar YAML document (format of config/calendar/nse.yaml). */
export function parseCalendar(text: string, source = 'calendar'): MarketCalendar & { lastChecked: string } {
  const parsed = calendarFileSchema.safeParse(parse(text));
  if (!parsed.success) {
    throw new ConfigError(`${source}: ${formatZodIssues(parsed.error, { limit: 1 })}`, { source });
  }
  const d = parsed.data;
  const cal = new MarketCalendar({
    holidays: Object.values(d.holidays).flat(),
    specialSessions: d.special_sessions,
    regularOpen: d.regular_session.open,
    regularClose: d.regular_session.close,
  });
  return Object.assign(cal, { lastChecked: d.last_checked });
}

let nse: MarketCalendar | undefined;

/** The NSE calendar from config/calendar/nse.yaml (read once per process). */
export function nseCalendar(): MarketCalendar {
  if (!nse) {
    const file = configPath('calendar', 'nse.yaml');
    nse = parseCalendar(readFileSync(file, 'utf8'), file);
  }
  return nse;
}
