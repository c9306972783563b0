/**
 * Parameters of `short-straddle`, with their defaults. Times are IST; percentages are of the
 * leg's entry premium.
 */
import { z } from 'zod';
import { SESSION_CLOSE_MINUTE, SESSION_OPEN_MINUTE } from '../../core/candles.js';
import { formatMinuteOfDay, timeOfDay } from '../../core/time-of-day.js';

export const shortStraddleParams = z
  .object({
    /** Underlying symbol as the contracts endpoints name it (spec 4.5). */
    underlying: z.string().min(1).default('NIFTY'),
    /** Scrip code of the underlying index (its ticks/candles drive the strategy; the chain is asked for it). */
    underlyingInstrument: z.string().min(1).default('NIDX_13'),
    /** `nearest` (the weekly), `nearest-monthly`, or a `YYYY-MM-DD` date. */
    expiry: z.union([z.enum(['nearest', 'nearest-monthly']), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected nearest, nearest-monthly or YYYY-MM-DD')]).default('nearest'),
    /** Skip expiries fewer than this many calendar days away (0 allows selling on expiry day). */
    minDaysToExpiry: z.number().int().nonnegative().default(0),
    /** Lots per leg; quantity = lots x the lot size from the instrument master. */
    lots: z.number().int().positive().default(1),
    entryTime: timeOfDay.prefault('09:20'),
    /**
     * Each leg is sold with a marketable limit this many percent below the chain's bid (its last
     * price when no bid): it fills at once in a normal market but never far below the quote, and the
     * risk layer can price the margin from it. 0 sells at market.
     */
    entryLimitPercent: z.number().min(0).max(20).default(2),
    /** Minutes after `entryTime` during which a missing or stale chain may still arrive; then the day is skipped. */
    entryWindowMinutes: z.number().int().positive().default(10),
    exitTime: timeOfDay.prefault('15:15'),
    /** Per-leg stop-loss: a BUY stop at entry premium x (1 + stopLossPercent/100). */
    stopLossPercent: z.number().positive().default(30),
    /** The stop works as a limit this many percent above its trigger; 0 = market once triggered. */
    stopLimitBufferPercent: z.number().nonnegative().default(5),
    /** When one leg is stopped out, move the other leg's stop to its entry premium. */
    otherStopToCost: z.boolean().default(false),
    /** Skip the day when the mean IV of the two legs is below this (decimal, 0 = no filter). */
    minIv: z.number().nonnegative().default(0),
    /** Strikes each side of ATM in the requested chain. */
    strikeCount: z.number().int().positive().max(50).default(5),
    /** Risk-free rate for locally computed greeks, decimal. */
    rate: z.number().min(0).max(0.5).default(0.065),
    /** A chain older than this at entry is not used, seconds. */
    maxChainAgeSeconds: z.number().int().positive().default(120),
    product: z.enum(['INTRADAY', 'MARGIN']).default('INTRADAY'),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (!(p.entryTime >= SESSION_OPEN_MINUTE && p.entryTime < p.exitTime && p.exitTime <= SESSION_CLOSE_MINUTE)) {
      ctx.addIssue({
        code: 'custom',
        path: ['entryTime'],
        message: `entryTime (${formatMinuteOfDay(p.entryTime)}) must be within the session and before exitTime (${formatMinuteOfDay(p.exitTime)})`,
      });
    }
  });

export type ShortStraddleParams = z.output<typeof shortStraddleParams>;
export type ShortStraddleParamsInput = z.input<typeof shortStraddleParams>;
