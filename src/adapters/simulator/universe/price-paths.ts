/**
 * Daily closing-price paths of every underlying and equity: one value per calendar day from
 * PATH_START to PATH_END, passing through the reference price on ANCHOR_DATE. Log prices follow
 * a trend with weak mean reversion around it, so five years back the level is plausible (NIFTY near
 * 15,000 in 2021) rather than a free random walk's anything. Weekend and holiday values exist so
 * gaps after them carry the moves of the days in between.
 */
import { DAY_MS, istMidnight } from '../../../core/time.js';
import { dateMs } from './date-ms.js';
import { ANCHOR_DATE } from './reference-data.js';
import { Rng } from './rng.js';

export const PATH_START = '2019-01-01';
export const PATH_END = '2032-12-31';

const START_MS = istMidnight(PATH_START);
const DAYS = Math.round((istMidnight(PATH_END) - START_MS) / DAY_MS) + 1;
const ANCHOR_INDEX = Math.round((istMidnight(ANCHOR_DATE) - START_MS) / DAY_MS);
const DT = 1 / 365;
/** Annual log drift of the trend. */
const TREND = 0.1;
/** Mean-reversion speed towards the trend, per year (a half-life of about eight months). */
const REVERSION = 1;
const CACHE_LIMIT = 1500;

export interface PathSpec {
  /** Price on ANCHOR_DATE, rupees. */
  readonly price: number;
  readonly annualVol: number;
}

export class PricePaths {
  private readonly cache = new Map<string, Float64Array>();

  constructor(private readonly seed: number) {}

  /** Day index of a date within the path (throws RangeError outside PATH_START..PATH_END). */
  static dayIndex(date: string): number {
    const i = Math.round((dateMs(date) - START_MS) / DAY_MS);
    if (i < 0 || i >= DAYS) throw new RangeError(`date ${date} is outside the simulated history ${PATH_START}..${PATH_END}`);
    return i;
  }

  /** Closing price (rupees, unrounded) of `key` on a date. */
  close(key: string, spec: PathSpec, date: string): number {
    return Math.exp(this.logPath(key, spec)[PricePaths.dayIndex(date)]!);
  }

  /** The whole log-price path (shared, do not mutate). */
  logPath(key: string, spec: PathSpec): Float64Array {
    const hit = this.cache.get(key);
    if (hit) {
      // Refresh recency so hot symbols stay cached.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const path = this.build(key, spec);
    this.cache.set(key, path);
    if (this.cache.size > CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return path;
  }

  private build(key: string, spec: PathSpec): Float64Array {
    const path = new Float64Array(DAYS);
    const anchor = Math.log(spec.price);
    const sd = spec.annualVol * Math.sqrt(DT);
    const drift = (TREND - (spec.annualVol * spec.annualVol) / 2) * DT;
    path[ANCHOR_INDEX] = anchor;
    const fwd = new Rng(this.seed, 'path+', key);
    for (let i = ANCHOR_INDEX + 1; i < DAYS; i++) {
      const prev = path[i - 1]!;
      const trend = anchor + TREND * (i - 1 - ANCHOR_INDEX) * DT;
      path[i] = prev + drift + REVERSION * (trend - prev) * DT + sd * fwd.normal();
    }
    const back = new Rng(this.seed, 'path-', key);
    for (let i = ANCHOR_INDEX - 1; i >= 0; i--) {
      const next = path[i + 1]!;
      const trend = anchor + TREND * (i + 1 - ANCHOR_INDEX) * DT;
      path[i] = next - drift + REVERSION * (trend - next) * DT + sd * back.normal();
    }
    return path;
  }
}
