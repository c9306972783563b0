/**
 * One trading day of an index or equity at one-minute resolution: an overnight gap from the
 * previous close, then a Brownian bridge that lands exactly on the day's close of the daily path,
 * with intraminute extremes and a U-shaped volume profile. Pure in (seed, symbol, date).
 */
import { Rng } from '../universe/rng.js';

export interface DayPathInput {
  readonly seed: number;
  readonly key: string;
  readonly date: string;
  /** Minutes in the session (375 for 09:15-15:30). */
  readonly minutes: number;
  /** Previous trading day's close and this day's close, rupees. */
  readonly prevClose: number;
  readonly close: number;
  readonly annualVol: number;
  /** Typical day volume in shares (0 for indices). */
  readonly typicalVolume: number;
}

/** Raw (unrounded, rupees) minute path: `open[k]`, `close[k]`, `high[k]`, `low[k]`, `volume[k]` for minute k. */
export interface DayPath {
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
}

export function generateDayPath(i: DayPathInput): DayPath {
  const n = Math.max(1, i.minutes);
  const rng = new Rng(i.seed, 'day', i.key, i.date);
  const dayVol = i.annualVol / Math.sqrt(252);
  const minuteVol = (0.9 * dayVol) / Math.sqrt(n);
  const lnPrev = Math.log(i.prevClose);
  const lnClose = Math.log(i.close);
  // Part of the close-to-close move happens overnight, plus gap noise of its own.
  const lnOpen = lnPrev + 0.3 * (lnClose - lnPrev) + 0.25 * dayVol * rng.normal();

  const walk = new Float64Array(n + 1);
  for (let k = 1; k <= n; k++) walk[k] = walk[k - 1]! + minuteVol * rng.normal();
  const wn = walk[n]!;
  const point = (k: number): number => Math.exp(lnOpen + (k / n) * (lnClose - lnOpen) + walk[k]! - (k / n) * wn);

  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  let weightSum = 0;
  let prev = point(0);
  for (let k = 0; k < n; k++) {
    const next = point(k + 1);
    open[k] = prev;
    close[k] = next;
    const top = Math.max(prev, next);
    const bottom = Math.min(prev, next);
    high[k] = top * Math.exp(Math.abs(rng.normal()) * 0.6 * minuteVol);
    low[k] = bottom * Math.exp(-Math.abs(rng.normal()) * 0.6 * minuteVol);
    // Volume is heaviest at the open and into the close.
    const w = (1 + 1.6 * Math.exp(-k / 20) + 1.1 * Math.exp(-(n - 1 - k) / 25)) * Math.exp(0.35 * rng.normal());
    volume[k] = w;
    weightSum += w;
    prev = next;
  }
  if (i.typicalVolume > 0) {
    const dayVolume = i.typicalVolume * Math.exp(0.3 * rng.normal() + 8 * Math.abs(lnClose - lnPrev));
    for (let k = 0; k < n; k++) volume[k] = Math.round((volume[k]! / weightSum) * dayVolume);
  } else volume.fill(0);
  return { open, high, low, close, volume };
}
