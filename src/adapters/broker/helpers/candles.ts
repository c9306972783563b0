/**
 * Historical candles for any range: the range is cut into windows of the interval's maximum
 * range per call (src/core/candles.ts `maxRangeMs`, wire-gaps), fetched, merged, de-duplicated by
 * open time and sorted. Windows wholly in the past are cached on disk (one JSON file per scrip,
 * interval and window), so a second run over the same history makes no calls.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../../core/clock.js';
import { maxRangeMs, type Interval } from '../../../core/candles.js';
import type { CandleEvent } from '../../../core/events.js';
import { InputException } from '../errors.js';
import type { BrokerClient } from '../client.js';
import type { WireCandle } from '../schemas/historical.js';

export interface CandleRangeOptions {
  readonly code: string;
  readonly interval: Interval;
  /** Inclusive start, epoch ms. */
  readonly from: number;
  /** Exclusive end, epoch ms. */
  readonly to: number;
  /** Cache folder; omit to disable the disk cache. */
  readonly cacheDir?: string;
  /** Called after each window with (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Expired contracts are addressed by trading symbol (4.9). */
  readonly expired?: boolean;
}

export interface CandleRangeResult {
  readonly candles: WireCandle[];
  readonly calls: number;
  readonly cacheHits: number;
}

/** Cuts [from, to) into windows no longer than the interval's maximum range. */
export function candleWindows(interval: Interval, from: number, to: number): Array<[number, number]> {
  if (!(to > from)) throw new InputException(`candles: the range is empty (from ${from} is not before to ${to})`, { field: 'to' });
  const step = maxRangeMs(interval);
  const out: Array<[number, number]> = [];
  for (let s = from; s < to; s += step) out.push([s, Math.min(to, s + step)]);
  return out;
}

function cacheFile(dir: string, code: string, interval: Interval, [s, e]: [number, number]): string {
  return join(dir, 'candles', code.replace(/[^\w.-]/g, '_'), interval, `${s}-${e}.json`);
}

async function readCache(file: string): Promise<WireCandle[] | undefined> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return Array.isArray(v) ? (v as WireCandle[]) : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, candles: readonly WireCandle[]): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(candles));
  await rename(tmp, file);
}

export async function fetchCandleRange(client: BrokerClient, clock: Clock, o: CandleRangeOptions): Promise<CandleRangeResult> {
  const windows = candleWindows(o.interval, o.from, o.to);
  const byStart = new Map<number, WireCandle>();
  let calls = 0;
  let cacheHits = 0;
  let done = 0;
  const now = clock.now();
  for (const w of windows) {
    const file = o.cacheDir ? cacheFile(o.cacheDir, o.code, o.interval, w) : undefined;
    let candles = file ? await readCache(file) : undefined;
    if (candles) cacheHits++;
    else {
      calls++;
      const data = o.expired ? await client.historicalExpired(o.interval, [o.code], w[0], w[1]) : await client.historical(o.interval, [o.code], w[0], w[1]);
      candles = data[o.code] ?? Object.values(data)[0] ?? [];
      // Only a window that is over can be cached: the current one still grows.
      if (file && w[1] <= now) await writeCache(file, candles);
    }
    for (const c of candles) if (c.start >= o.from && c.start < o.to) byStart.set(c.start, c);
    o.onProgress?.(++done, windows.length);
  }
  return { candles: [...byStart.values()].sort((a, b) => a.start - b.start), calls, cacheHits };
}

/** Wire candles as core CandleEvents (`ts` = when known: the next candle's open or `end`). */
export function toCandleEvents(code: string, interval: Interval, candles: readonly WireCandle[], closeOf: (start: number) => number): CandleEvent[] {
  return candles.map((c) => ({
    type: 'candle',
    ts: closeOf(c.start),
    instrument: code,
    interval,
    start: c.start,
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    volume: c.volume,
    ...(c.oi !== undefined ? { oi: c.oi } : {}),
  }));
}
