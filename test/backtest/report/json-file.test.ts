import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonText } from '../../../backtest/report/backtest-result.js';
import { JsonRows, writeJsonFile } from '../../../backtest/report/json-file.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-json-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function written(doc: Record<string, unknown>): string {
  const path = join(dir, `doc-${n++}.json`);
  writeJsonFile(path, doc);
  return readFileSync(path, 'utf8');
}

const fill = (i: number): Record<string, unknown> => ({ time: `2024-01-02T09:${String(15 + (i % 40)).padStart(2, '0')}:00.000+05:30`, instrument: 'NSE_2885', side: i % 2 ? 'SELL' : 'BUY', qty: 10, price: 1426.55 + i / 100, charges: -0, tag: `bt1-${i}`, order_id: `EQ-${i}`, note: i % 7 ? undefined : 'line\nbreak "quoted" ₹' });

describe('writeJsonFile', () => {
  it('writes the same bytes as jsonText for a report with long arrays (written in slices)', () => {
    const doc = {
      report: 'tarang backtest',
      version: 1,
      run: { strategy: 'sma-cross', params: { fast: 10, slow: 30 }, skipped: undefined, list: [1, 2, [3, []], {}] },
      fills: Array.from({ length: 5_003 }, (_, i) => fill(i)),
      trades: Array.from({ length: 4_001 }, (_, i) => (i % 3 ? { pnl: i * 0.01, reasons: ['signal', null] } : [i, undefined, () => 1])),
      empty: [],
      nothing: undefined,
      fn: () => 1,
      nan: Number.NaN,
      equity_curve: Array.from({ length: 2_000 }, (_, i) => ({ date: `2024-01-${i}`, equity: 1e6 - i, drawdown: i / 1e6 })),
    };
    expect(written(doc)).toBe(jsonText(doc));
  });

  it('writes an array holding dates (toJSON) whole, as jsonText does', () => {
    const doc = { at: Array.from({ length: 4_500 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 60_000)) };
    expect(written(doc)).toBe(jsonText(doc));
  });

  it('writes rows made from their source (JsonRows) as jsonText writes the whole array', () => {
    const source = Array.from({ length: 1_000 }, (_, i) => i);
    const row = (i: number): Record<string, unknown> => ({ i, half: i / 2, tag: `t${i}`, skip: undefined });
    const lazy = { a: 1, rows: new JsonRows(source, row), none: new JsonRows([], row), b: [1] };
    const eager = { a: 1, rows: source.map(row), none: [], b: [1] };
    expect(jsonText(lazy)).toBe(jsonText(eager));
    expect(written(lazy)).toBe(jsonText(eager));
  });

  it('writes an empty document and one whose members are all left out as {}', () => {
    expect(written({})).toBe(jsonText({}));
    expect(written({ a: undefined })).toBe(jsonText({ a: undefined }));
    expect(written({ a: undefined, b: 1 })).toBe(jsonText({ a: undefined, b: 1 }));
  });
});
