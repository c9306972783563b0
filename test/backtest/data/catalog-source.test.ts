/** A catalog series is described exactly as the CSV loader describes the same candles. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeSeries } from '../../../backtest/data/catalog-source.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';

/** Minute bars from 09:15 IST, `bars[k]` of them on the k-th weekday from 2024-01-01. */
function csv(bars: readonly number[]): string {
  const lines = ['Instrument,Date,Time,Open,High,Low,Close,Volume'];
  let day = Date.UTC(2024, 0, 1);
  for (const n of bars) {
    while ([0, 6].includes(new Date(day).getUTCDay())) day += 86_400_000;
    const ymd = new Date(day).toISOString().slice(0, 10).replaceAll('-', '');
    for (let k = 0; k < n; k++) {
      const m = 9 * 60 + 15 + k;
      lines.push(`X,${ymd},${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')},100.00,100.50,99.50,100.25,10`);
    }
    day += 86_400_000;
  }
  return `${lines.join('\n')}\n`;
}

describe('summarizeSeries', () => {
  it('counts sessions and short sessions as the CSV loader does, whatever the lengths of the days', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tarang-summary-'));
    try {
      // Full days, a half day, single bars, runs of equal and unequal days, a short last day.
      for (const bars of [[375, 375, 100, 375, 374, 10, 375, 1, 375, 375, 375, 2], [1, 1, 1], [375], [200, 375, 375, 375, 7]]) {
        const file = join(dir, 'X.csv');
        writeFileSync(file, csv(bars));
        const { series, summary } = loadCsvCandles(file);
        expect(summarizeSeries(series[0]!)).toEqual(summary.instruments[0]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
