/**
 * A seeded random-walk minute series written as CSV, for benchmarks and load tests where the
 * shared real data is too short (the NIFTY 2024 file has 58k bars; the bench needs a million).
 * Weekdays only, 375 one-minute bars a session (09:15..15:29 IST), prices on a 5-paise tick,
 * written in the NIFTY file's layout (`Instrument,Date,Time,Open,High,Low,Close`) plus Volume.
 */
import { openSync, writeSync, closeSync } from 'node:fs';
import { mulberry32 } from '../../src/core/random.js';
import { daysFromCivil } from './date-parse.js';

export interface SyntheticOptions {
  readonly candles: number;
  readonly seed?: number;
  /** First session, `YYYY-MM-DD` (default 2015-01-01). */
  readonly from?: string;
  /** Starting price in paise (default 2,000,000 = ₹20,000). */
  readonly startPrice?: number;
  readonly symbol?: string;
}

const BARS_PER_SESSION = 375;

function fmt(p: number): string {
  return `${Math.trunc(p / 100)}.${String(p % 100).padStart(2, '0')}`;
}

/** Writes the CSV and returns the number of candles written. */
export function writeSyntheticMinuteCsv(path: string, o: SyntheticOptions): number {
  const rnd = mulberry32(o.seed ?? 42);
  const symbol = o.symbol ?? 'SYNTH';
  const [y0, m0, d0] = (o.from ?? '2015-01-01').split('-').map(Number) as [number, number, number];
  let day = daysFromCivil(y0, m0, d0);
  let price = o.startPrice ?? 2_000_000;
  const tick = 5;
  const fd = openSync(path, 'w');
  const chunk: string[] = ['Instrument,Date,Time,Open,High,Low,Close,Volume\n'];
  let written = 0;
  try {
    while (written < o.candles) {
      const dow = (((day + 4) % 7) + 7) % 7; // 0 = Sunday (1970-01-01 was a Thursday)
      if (dow === 0 || dow === 6) {
        day++;
        continue;
      }
      const dt = new Date(day * 86_400_000);
      const ymd = `${dt.getUTCFullYear()}${String(dt.getUTCMonth() + 1).padStart(2, '0')}${String(dt.getUTCDate()).padStart(2, '0')}`;
      for (let k = 0; k < BARS_PER_SESSION && written < o.candles; k++) {
        const minute = 9 * 60 + 15 + k;
        const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
        const open = price;
        // ~0.05% per-minute volatility, in ticks, with a gentle mean reversion to stay positive.
        const drift = price > 4_000_000 ? -0.52 : price < 500_000 ? -0.48 : -0.5;
        const close = Math.max(tick, open + Math.round(((rnd() + drift) * price * 0.0017) / tick) * tick);
        const high = Math.max(open, close) + Math.round((rnd() * price * 0.0004) / tick) * tick;
        const low = Math.max(tick, Math.min(open, close) - Math.round((rnd() * price * 0.0004) / tick) * tick);
        const vol = 1000 + Math.floor(rnd() * 50_000);
        chunk.push(`${symbol},${ymd},${time},${fmt(open)},${fmt(high)},${fmt(low)},${fmt(close)},${vol}\n`);
        price = close;
        written++;
      }
      if (chunk.length > 20_000) {
        writeSync(fd, chunk.join(''));
        chunk.length = 0;
      }
      day++;
    }
    writeSync(fd, chunk.join(''));
  } finally {
    closeSync(fd);
  }
  return written;
}
