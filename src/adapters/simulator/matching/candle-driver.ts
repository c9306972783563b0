/**
 * Plays candles through the matching engine, so backtests fill with the same model as the
 * simulator. A candle becomes a short price path: the open (a discontinuity: gaps fill at the
 * open), then the high and the low in an order chosen by `bothTouched`, then the close; the
 * segments between are continuous (limits fill at their limit, stops at their trigger, MARKET
 * orders waiting since the previous candle at the open, with `slippageTicks` from the engine).
 * Each point carries the candle's low and high: no fill is priced outside them (fill-model.ts),
 * and smart legs armed at a point see the rest of the path from that point on.
 *
 * No look-ahead: feed candle N+1 to the driver before the strategy sees candle N+1. An order placed
 * after candle N closed is newer than candle N's path and, with the engine's `matchOnArrival: false`,
 * can only fill on candle N+1 or later.
 */
import { z } from 'zod';
import { ConfigError } from '../../../core/errors.js';
import type { Paise } from '../../../core/money.js';
import type { MatchingEngine } from './matching-engine.js';
import type { MarketUpdate, UpdateMode } from './types.js';
import { formatZodIssues } from '../../../core/zod-issues.js';

/**
 * Which extreme comes first in a candle that reaches both:
 * - `pessimistic`: the one that hurts (a long's stop before its target);
 * - `optimistic`: the one that helps;
 * - `ohlc-path`: the extreme nearer the open first (the usual OHLC path convention).
 * Pessimistic and optimistic decide from the instrument's working stops, then targets, then the
 * net position; with nothing to decide from they fall back to `ohlc-path`.
 */
export const BothTouchedRule = { PESSIMISTIC: 'pessimistic', OPTIMISTIC: 'optimistic', OHLC_PATH: 'ohlc-path' } as const;
export type BothTouchedRule = (typeof BothTouchedRule)[keyof typeof BothTouchedRule];

export interface CandleInput {
  readonly instrument: string;
  /** Open time of the candle (inclusive). */
  readonly start: number;
  /** Close time (exclusive end), when the candle becomes known. */
  readonly ts: number;
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  readonly close: Paise;
  readonly volume?: number;
}

export const CandleDriverOptionsSchema = z
  .object({
    bothTouched: z.enum(['pessimistic', 'optimistic', 'ohlc-path']).default('pessimistic'),
    /**
     * Share of a candle's volume our orders may take (both sides together, per candle), e.g. 0.1.
     * Absent: unlimited (every crossed order fills in full). A candle without volume is unlimited.
     */
    participationRate: z.number().positive().max(1).optional(),
  })
  .strict();
export type CandleDriverOptions = z.input<typeof CandleDriverOptionsSchema>;

export interface PathPoint {
  readonly ts: number;
  readonly price: Paise;
  readonly mode: UpdateMode;
}

/** The path a candle is played as: open, first extreme, second extreme, close. */
export function candlePath(c: CandleInput, highFirst: boolean): PathPoint[] {
  const span = Math.max(4, c.ts - c.start);
  const a = highFirst ? c.high : c.low;
  const b = highFirst ? c.low : c.high;
  return [
    { ts: c.start, price: c.open, mode: 'open' },
    { ts: c.start + Math.floor(span / 3), price: a, mode: 'path' },
    { ts: c.start + Math.floor((2 * span) / 3), price: b, mode: 'path' },
    { ts: c.start + span - 1, price: c.close, mode: 'path' },
  ];
}

/** `ohlc-path`: the nearer extreme first; on a tie, the one the close points away from. */
export function nearerExtremeFirst(c: Pick<CandleInput, 'open' | 'high' | 'low' | 'close'>): boolean {
  const up = c.high - c.open;
  const down = c.open - c.low;
  if (up !== down) return up < down;
  return c.close < c.open;
}

export class CandleDriver {
  private readonly rule: BothTouchedRule;
  private readonly participation: number | undefined;
  private readonly lastPrice: { -readonly [K in keyof MarketUpdate]: MarketUpdate[K] } = { instrument: '', ts: 0, ltp: 0, mode: 'path' };

  constructor(
    private readonly engine: MatchingEngine,
    options: CandleDriverOptions = {},
  ) {
    const parsed = CandleDriverOptionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new ConfigError(`candle driver options: ${formatZodIssues(parsed.error)}`, {
        options,
      });
    }
    this.rule = parsed.data.bothTouched;
    this.participation = parsed.data.participationRate;
  }

  /** Plays one candle; returns the quantity filled. */
  playCandle(c: CandleInput): number {
    if (!(c.low <= c.open && c.open <= c.high && c.low <= c.close && c.close <= c.high)) {
      throw new RangeError(`candle ${c.instrument} at ${c.start}: open/close must lie within [low, high] (o=${c.open} h=${c.high} l=${c.low} c=${c.close})`);
    }
    const engine = this.engine;
    if (!engine.hasWorkingOrders(c.instrument)) {
      // Nothing can fill: only the last price matters (marks, MARKET protection, stop-side checks).
      // One reused update (the engine copies what it keeps): this is most candles of a backtest.
      const u = this.lastPrice;
      u.instrument = c.instrument;
      u.ts = c.ts - 1;
      u.ltp = c.close;
      return engine.onMarket(u);
    }
    let budget = this.participation !== undefined && c.volume !== undefined ? Math.floor(c.volume * this.participation) : Infinity;
    let filled = 0;
    for (const p of candlePath(c, this.highFirst(c))) {
      if (budget <= 0) {
        engine.onMarket({ instrument: c.instrument, ts: p.ts, ltp: p.price, mode: p.mode, low: c.low, high: c.high, availableQty: 0 });
        continue;
      }
      // One literal (an unlimited budget is an absent one): a conditional spread copies per point.
      const q = engine.onMarket({
        instrument: c.instrument,
        ts: p.ts,
        ltp: p.price,
        mode: p.mode,
        low: c.low,
        high: c.high,
        availableQty: budget !== Infinity ? budget : undefined,
      });
      filled += q;
      budget -= q;
    }
    return filled;
  }

  private highFirst(c: CandleInput): boolean {
    if (this.rule === 'ohlc-path') return nearerExtremeFirst(c);
    const adverseHigh = this.adverseIsHigh(c.instrument);
    if (adverseHigh === undefined) return nearerExtremeFirst(c);
    return this.rule === 'pessimistic' ? adverseHigh : !adverseHigh;
  }

  /** Which extreme hurts: true = the high (a short is exposed), false = the low, undefined = cannot tell. */
  private adverseIsHigh(instrument: string): boolean | undefined {
    // A SELL stop protects a long (the low hurts); a BUY stop protects a short (the high hurts).
    // A SELL target belongs to a long (the low hurts it too), a BUY target to a short.
    const { stops, targets } = this.engine.triggerBias(instrument);
    if (stops !== 0) return stops > 0;
    if (targets !== 0) return targets > 0;
    const net = this.engine.account.netQty(instrument);
    if (net !== 0) return net < 0;
    return undefined;
  }
}
