/**
 * Performance metrics from the equity curve and the round trips.
 *
 * Conventions (stated so results can be compared with other tools):
 * - Returns for Sharpe and Sortino are daily: the equity at the last sample of each IST trading
 *   day against the previous day's (the first against the starting cash). Annualised with
 *   sqrt(252); the risk-free rate is 0. Sharpe uses the sample standard deviation (n - 1);
 *   Sortino the downside deviation sqrt(mean(min(r, 0)^2)) over all days. Undefined (null) with
 *   fewer than two days or no variation.
 * - CAGR over calendar time from the first candle's open to the last candle's close (365.25-day
 *   years); null for spans under one day.
 * - Drawdown on every sample (candle close): the largest fall from a running peak, as a fraction
 *   of the peak. Its duration is the longest time spent below a previous peak (peak to recovery,
 *   or to the end when not recovered).
 * - Win rate and profit factor over closed round trips, net of charges; profit factor is null
 *   when there is no losing trade.
 * - Exposure: the share of samples with any open position.
 */
import { DAY_MS, IST_OFFSET_MS } from '../../src/core/time.js';
import type { Paise } from '../../src/core/money.js';
import type { EquityCurve } from './equity-curve.js';
import type { TradeRecord } from './trades.js';

export interface DrawdownInfo {
  /** Largest fall from a peak, as a fraction (0.1 = 10%). */
  readonly maxDrawdown: number;
  /** Same, in paise. */
  readonly maxDrawdownAmount: Paise;
  readonly peakTs?: number;
  readonly troughTs?: number;
  /** Longest time below a previous peak, ms. */
  readonly maxDurationMs: number;
  readonly durationStartTs?: number;
  readonly durationEndTs?: number;
  /** Whether the longest drawdown had recovered by the end. */
  readonly recovered: boolean;
}

export interface Metrics {
  readonly startingCash: Paise;
  readonly finalEquity: Paise;
  readonly totalReturn: number;
  readonly cagr: number | null;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly drawdown: DrawdownInfo;
  readonly trades: number;
  readonly winRate: number | null;
  readonly profitFactor: number | null;
  readonly grossProfit: Paise;
  readonly grossLoss: Paise;
  readonly averageTrade: Paise | null;
  readonly bestTrade: Paise | null;
  readonly worstTrade: Paise | null;
  readonly exposure: number;
  readonly chargesPaid: Paise;
  readonly fills: number;
  readonly tradingDays: number;
}

/** What one pass over the equity curve gives: the drawdown, the end-of-day equity and the exposed samples. */
interface CurveScan {
  readonly startingCash: Paise;
  readonly length: number;
  readonly drawdown: DrawdownInfo;
  readonly daily: ReadonlyArray<readonly [number, number]>;
  readonly exposed: number;
}

/**
 * The last scan of each curve: the metrics and the report both want the end-of-day equity of the
 * same curve, a million samples in a 1M-candle run. A frozen curve (equity-curve.ts) never
 * changes; the length is checked too, for a recorder handed over as a curve while it still grows.
 */
const scans = new WeakMap<EquityCurve, CurveScan>();

/**
 * Drawdown, end-of-day equity and exposure in one pass over the samples (they were three; in a
 * one-off run each loop also paid its own warm-up before V8 optimised it).
 */
function scanCurve(curve: EquityCurve, startingCash: Paise): CurveScan {
  const cached = scans.get(curve);
  if (cached !== undefined && cached.length === curve.length && Object.is(cached.startingCash, startingCash)) return cached;
  // Times are NaN while unknown (not undefined): a number-only local is never boxed, and this loop
  // runs once per equity sample.
  const { equity, ts, exposed } = curve;
  const n = curve.length;
  let peak = startingCash;
  let peakTs = NaN;
  let maxDd = 0;
  let maxAmt = 0;
  let ddPeakTs = NaN;
  let ddTroughTs = NaN;
  let underSince = NaN;
  let longest = 0;
  let longestStart = NaN;
  let longestEnd = NaN;
  let recovered = true;
  let exposedSamples = 0;
  // A sample is the day's last when the next one falls on another day (the curve is in time order).
  const daily: Array<readonly [number, number]> = [];
  let day = n > 0 ? Math.floor((ts[0]! + IST_OFFSET_MS) / DAY_MS) : 0;
  let nextDay = (day + 1) * DAY_MS - IST_OFFSET_MS;
  for (let i = 0; i < n; i++) {
    const e = equity[i]!;
    const t = ts[i]!;
    exposedSamples += exposed[i]!;
    if (t >= nextDay) {
      daily.push([day, equity[i - 1]!]);
      day = Math.floor((t + IST_OFFSET_MS) / DAY_MS);
      nextDay = (day + 1) * DAY_MS - IST_OFFSET_MS;
    }
    if (e >= peak) {
      if (underSince === underSince && t - underSince > longest) {
        longest = t - underSince;
        longestStart = underSince;
        longestEnd = t;
        recovered = true;
      }
      underSince = NaN;
      peak = e;
      peakTs = t;
      continue;
    }
    if (underSince !== underSince) underSince = peakTs === peakTs ? peakTs : ts[0]!;
    const amt = peak - e;
    const dd = peak > 0 ? amt / peak : 0;
    if (dd > maxDd) {
      maxDd = dd;
      maxAmt = amt;
      ddPeakTs = peakTs;
      ddTroughTs = t;
    }
  }
  if (n > 0) daily.push([day, equity[n - 1]!]);
  if (underSince === underSince && n > 0 && ts[n - 1]! - underSince > longest) {
    longest = ts[n - 1]! - underSince;
    longestStart = underSince;
    longestEnd = ts[n - 1]!;
    recovered = false;
  }
  const drawdownInfo: DrawdownInfo = {
    maxDrawdown: maxDd,
    maxDrawdownAmount: maxAmt,
    ...(ddPeakTs === ddPeakTs ? { peakTs: ddPeakTs } : {}),
    ...(ddTroughTs === ddTroughTs ? { troughTs: ddTroughTs } : {}),
    maxDurationMs: longest,
    ...(longestStart === longestStart ? { durationStartTs: longestStart } : {}),
    ...(longestEnd === longestEnd ? { durationEndTs: longestEnd } : {}),
    recovered,
  };
  const scan: CurveScan = { startingCash, length: n, drawdown: drawdownInfo, daily, exposed: exposedSamples };
  scans.set(curve, scan);
  return scan;
}

export function drawdown(curve: EquityCurve, startingCash: Paise): DrawdownInfo {
  return scanCurve(curve, startingCash).drawdown;
}

/** End-of-day equity per IST date, in order: [dayIndex, equity]. */
export function dailyEquity(curve: EquityCurve): ReadonlyArray<readonly [number, number]> {
  const cached = scans.get(curve);
  return cached !== undefined && cached.length === curve.length ? cached.daily : scanCurve(curve, 0).daily;
}

function meanStd(xs: readonly number[]): { mean: number; std: number; down: number } {
  const n = xs.length;
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / n;
  let ss = 0;
  let ds = 0;
  for (const x of xs) {
    ss += (x - mean) * (x - mean);
    if (x < 0) ds += x * x;
  }
  return { mean, std: n > 1 ? Math.sqrt(ss / (n - 1)) : 0, down: Math.sqrt(ds / n) };
}

export interface MetricsInput {
  readonly curve: EquityCurve;
  readonly startingCash: Paise;
  readonly trades: readonly TradeRecord[];
  readonly chargesPaid: Paise;
  readonly fills: number;
  /** Open time of the first candle (for CAGR). */
  readonly firstStart?: number;
}

export function computeMetrics(m: MetricsInput): Metrics {
  const { curve, startingCash } = m;
  const finalEquity = curve.length > 0 ? curve.equity[curve.length - 1]! : startingCash;
  const scan = scanCurve(curve, startingCash);
  const days = scan.daily;
  const rets: number[] = [];
  let prev = startingCash;
  for (const [, e] of days) {
    rets.push(prev !== 0 ? e / prev - 1 : 0);
    prev = e;
  }
  const { mean, std, down } = rets.length > 0 ? meanStd(rets) : { mean: 0, std: 0, down: 0 };
  const ann = Math.sqrt(252);
  const sharpe = rets.length >= 2 && std > 0 ? (mean / std) * ann : null;
  const sortino = rets.length >= 2 && down > 0 ? (mean / down) * ann : null;
  const start = m.firstStart ?? (curve.length > 0 ? curve.ts[0]! : 0);
  const end = curve.length > 0 ? curve.ts[curve.length - 1]! : start;
  const years = (end - start) / (365.25 * DAY_MS);
  const growth = finalEquity / startingCash;
  const cagr = end - start >= DAY_MS && startingCash > 0 ? (growth > 0 ? growth ** (1 / years) - 1 : -1) : null;
  let wins = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  let best: number | null = null;
  let worst: number | null = null;
  let total = 0;
  for (const t of m.trades) {
    total += t.netPnl;
    if (t.netPnl > 0) {
      wins++;
      grossProfit += t.netPnl;
    } else grossLoss += -t.netPnl;
    if (best === null || t.netPnl > best) best = t.netPnl;
    if (worst === null || t.netPnl < worst) worst = t.netPnl;
  }
  const exposed = scan.exposed;
  const n = m.trades.length;
  return {
    startingCash,
    finalEquity,
    totalReturn: startingCash > 0 ? growth - 1 : 0,
    cagr,
    sharpe,
    sortino,
    drawdown: scan.drawdown,
    trades: n,
    winRate: n > 0 ? wins / n : null,
    profitFactor: grossLoss > 0 ? grossProfit / grossLoss : null,
    grossProfit,
    grossLoss,
    averageTrade: n > 0 ? Math.round(total / n) : null,
    bestTrade: best,
    worstTrade: worst,
    exposure: curve.length > 0 ? exposed / curve.length : 0,
    chargesPaid: m.chargesPaid,
    fills: m.fills,
    tradingDays: days.length,
  };
}
