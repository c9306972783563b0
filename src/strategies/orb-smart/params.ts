/**
 * Parameters of `orb-smart`, with their defaults. Distances in rupees (as a trader says them) are
 * turned into paise and rounded to the instrument's tick when an order is built; times are IST.
 */
import { z } from 'zod';
import { INTRADAY_INTERVALS, SESSION_CLOSE_MINUTE, SESSION_OPEN_MINUTE } from '../../core/candles.js';
import { formatMinuteOfDay, timeOfDay } from '../../core/time-of-day.js';

/** How a leg's distance from the entry price is set. */
export const LegMode = {
  /** Stop at the far side of the opening range; target at the near side plus `value` range widths. */
  RANGE: 'range',
  /** `value` percent of the entry price. */
  PERCENT: 'percent',
  /** `value` rupees. */
  POINTS: 'points',
  /** Target only: `value` times the entry-to-stop risk. */
  RR: 'rr',
} as const;
export type LegMode = (typeof LegMode)[keyof typeof LegMode];

export const Direction = { BOTH: 'both', LONG: 'long', SHORT: 'short' } as const;
export type Direction = (typeof Direction)[keyof typeof Direction];

const intradayInterval = z.enum(Object.keys(INTRADAY_INTERVALS) as [keyof typeof INTRADAY_INTERVALS, ...(keyof typeof INTRADAY_INTERVALS)[]]);

export const orbSmartParams = z
  .object({
    /** Scrip code of the equity, e.g. `NSE_1333` (HDFCBANK). */
    instrument: z.string().min(1),
    /** Shares per trade (a multiple of the lot size, 1 for cash equity). */
    qty: z.number().int().positive(),
    /** Candles the range is built from and whose closes signal a breakout. */
    interval: intradayInterval.default('1minute'),
    /** Length of the opening range after 09:15, minutes (a multiple of the interval). */
    rangeMinutes: z.number().int().positive().max(120).default(15),
    direction: z.enum(['both', 'long', 'short']).default('both'),
    /** The TRIGGER parent fires this many ticks beyond the breakout candle's close. */
    entryBufferTicks: z.number().int().nonnegative().default(1),
    /** When set, the entry works as a limit this many ticks beyond the trigger; absent: market once triggered. */
    entryLimitTicks: z.number().int().nonnegative().optional(),
    stopMode: z.enum(['range', 'percent', 'points']).default('range'),
    /** Percent or rupees for `percent`/`points`; ignored for `range`. */
    stopValue: z.number().positive().default(0.5),
    targetMode: z.enum(['range', 'percent', 'points', 'rr']).default('rr'),
    /** Risk multiple (`rr`), range widths beyond the range (`range`), percent or rupees. */
    targetValue: z.number().positive().default(2),
    /** Trail the stop-loss by this many rupees of favourable movement (spec 3.4); 0 = off. */
    trailingStep: z.number().nonnegative().default(0),
    /**
     * Modifications the trail may spend on the stop-loss leg; the stop then holds where it is. The
     * broker allows 25 per order and the engine switches to cancel-and-replace at 24, so the default
     * leaves room for a manual change.
     */
    trailBudget: z.number().int().positive().max(23).default(20),
    /** The stop is only moved when it would move by at least this many ticks (each move costs a modification). */
    trailMinTicks: z.number().int().positive().default(2),
    /** No new entry on candles closing after this time. */
    lastEntryTime: timeOfDay.prefault('14:30'),
    /** Everything is flattened on the first candle closing at or after this time. */
    exitTime: timeOfDay.prefault('15:10'),
    product: z.enum(['INTRADAY', 'CNC', 'MARGIN']).default('INTRADAY'),
  })
  .strict()
  .superRefine((p, ctx) => {
    const step = INTRADAY_INTERVALS[p.interval];
    if (p.rangeMinutes % step !== 0) {
      ctx.addIssue({ code: 'custom', path: ['rangeMinutes'], message: `rangeMinutes (${p.rangeMinutes}) must be a multiple of the ${p.interval} interval` });
    }
    const rangeEnd = SESSION_OPEN_MINUTE + p.rangeMinutes;
    if (!(p.lastEntryTime > rangeEnd && p.lastEntryTime <= p.exitTime)) {
      ctx.addIssue({
        code: 'custom',
        path: ['lastEntryTime'],
        message: `lastEntryTime (${formatMinuteOfDay(p.lastEntryTime)}) must fall after the range ends (${formatMinuteOfDay(rangeEnd)}) and not after exitTime (${formatMinuteOfDay(p.exitTime)})`,
      });
    }
    if (p.exitTime > SESSION_CLOSE_MINUTE) {
      ctx.addIssue({ code: 'custom', path: ['exitTime'], message: `exitTime (${formatMinuteOfDay(p.exitTime)}) must not be after the 15:30 close` });
    }
  });

export type OrbSmartParams = z.output<typeof orbSmartParams>;
export type OrbSmartParamsInput = z.input<typeof orbSmartParams>;
