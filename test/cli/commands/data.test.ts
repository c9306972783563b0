/**
 * `tarang data import|ls|query` and `tarang backtest --catalog` on the real NSE files: a backtest
 * from the catalog gives the same JSON as the one from the CSV file it was imported from.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { register } from '../../../src/cli/commands/data.js';
import { backtestCli } from '../../support/backtest-cli.js';
import { sharedData } from '../../support/shared-data.js';

const data = sharedData();

async function dataCli(args: readonly string[]): Promise<string> {
  const program = new Command('tarang').exitOverride();
  register(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'tarang', 'data', ...args]);
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
  return out;
}

/** The JSON report without `data` (the loader summary that names the source), and the summaries' per-instrument part. */
function comparable(file: string): { body: string; instruments: string } {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const sources = doc['data'] as Array<{ instruments: unknown[] }>;
  delete doc['data'];
  return { body: JSON.stringify(doc), instruments: JSON.stringify(sources.flatMap((s) => s.instruments)) };
}

describe.skipIf(!data.available)('tarang data and backtest --catalog (NSE minute files)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-data-cli-'));
  const catalog = join(dir, 'catalog');
  const nifty = data.path('nse-minute/NIFTY50_2024_1min.csv');
  const hdfc = data.path('nse-minute/HDFCBANK_2023_1min.csv');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports CSV files into Parquet months, lists them, and answers SQL', async () => {
    const out = await dataCli(['import', nifty, '--catalog', catalog]);
    expect(out).toMatch(/NIFTY\s+1minute\s+2024-01-01 09:15\s+2024-08-23 15:29\s+57960\s+8/);
    await dataCli(['import', hdfc, '--instrument', 'NSE_1333', '--catalog', catalog]);
    // Importing again rewrites the same months: nothing doubles.
    await dataCli(['import', nifty, '--catalog', catalog]);
    expect(readdirSync(join(catalog, '1minute', 'NIFTY')).filter((f) => f.endsWith('.parquet'))).toHaveLength(8);
    const ls = JSON.parse(await dataCli(['ls', '--json', '--catalog', catalog])) as Array<Record<string, unknown>>;
    expect(ls.map((r) => [r['instrument'], r['interval'], r['candles'], r['from'], r['to']])).toEqual([
      ['NIFTY', '1minute', 57960, '2024-01-01T09:15:00.000+05:30', '2024-08-23T15:29:00.000+05:30'],
      ['NSE_1333', '1minute', 15001, '2023-04-03T09:15:00.000+05:30', '2023-06-01T15:30:00.000+05:30'],
    ]);
    const table = await dataCli(['ls', '--catalog', catalog]);
    expect(table.split('\n')[0]).toMatch(/^instrument\s+interval\s+from\s+to\s+candles\s+months\s+size$/);
    const q = JSON.parse(await dataCli(['query', 'SELECT instrument, count(*) AS n, max(high) AS high FROM candles_1minute GROUP BY 1 ORDER BY 1', '--json', '--catalog', catalog])) as unknown[];
    expect(q).toEqual([
      { instrument: 'NIFTY', n: 57960, high: expect.any(Number) },
      { instrument: 'NSE_1333', n: 15001, high: expect.any(Number) },
    ]);
    const text = await dataCli(['query', "SELECT min(time_ist) AS first FROM candles WHERE instrument = 'NSE_1333'", '--catalog', catalog]);
    expect(text).toContain('2023-04-03 09:15:00');
  });

  it('backtests from the catalog with the same JSON as from the CSV file (NIFTY 2024, whole file and a window)', async () => {
    const args = ['--strategy', 'sma-cross', '--param', 'fast=10', '--param', 'slow=30', '--param', 'qty=100', '--cash', '1000000', '--charges', 'none'];
    await backtestCli(['--data', nifty, ...args, '--json', join(dir, 'nifty-csv.json')]);
    await backtestCli(['--catalog', catalog, '--instrument', 'NIFTY', ...args, '--json', join(dir, 'nifty-cat.json')]);
    const a = comparable(join(dir, 'nifty-csv.json'));
    const b = comparable(join(dir, 'nifty-cat.json'));
    expect(b.body).toBe(a.body);
    expect(b.instruments).toBe(a.instruments);
    expect(a.body).toMatch(/"fills":\[\{/);

    const win = ['--from', '2024-03-01', '--to', '2024-05-31'];
    await backtestCli(['--data', nifty, ...win, ...args, '--json', join(dir, 'w-csv.json')]);
    await backtestCli(['--catalog', catalog, '--instrument', 'NIFTY', ...win, ...args, '--json', join(dir, 'w-cat.json')]);
    expect(comparable(join(dir, 'w-cat.json'))).toEqual(comparable(join(dir, 'w-csv.json')));
  });

  it('backtests HDFCBANK (orb-smart) and two instruments at once from the catalog as from CSV', async () => {
    await backtestCli(['--data', hdfc, '--instrument', 'NSE_1333', '--strategy', 'orb-smart', '--param', 'qty=10', '--json', join(dir, 'h-csv.json')]);
    await backtestCli(['--catalog', catalog, '--instrument', 'NSE_1333', '--strategy', 'orb-smart', '--param', 'qty=10', '--json', join(dir, 'h-cat.json')]);
    expect(comparable(join(dir, 'h-cat.json'))).toEqual(comparable(join(dir, 'h-csv.json')));

    await dataCli(['import', hdfc, '--catalog', catalog]); // as HDFCBANK_2023_1MIN, the id --data gives it
    const args = ['--strategy', 'sma-cross', '--param', 'fast=5', '--param', 'slow=20', '--param', 'qty=10'];
    await backtestCli(['--data', hdfc, '--data', nifty, ...args, '--json', join(dir, 'two-csv.json')]);
    await backtestCli(['--catalog', catalog, '--instrument', 'NIFTY', '--instrument', 'HDFCBANK_2023_1MIN', ...args, '--json', join(dir, 'two-cat.json')]);
    const two = comparable(join(dir, 'two-cat.json'));
    expect(two).toEqual(comparable(join(dir, 'two-csv.json')));
    expect(two.body).toContain('"by_instrument"');
  });

  it('says what is missing: an unknown series, or no --instrument', async () => {
    await expect(backtestCli(['--catalog', catalog, '--instrument', 'NSE_9999', '--param', 'qty=1'])).rejects.toThrow(/has no candles of NSE_9999/);
    await expect(backtestCli(['--catalog', catalog, '--param', 'qty=1'])).rejects.toThrow(/name the series with --instrument/);
    await expect(backtestCli(['--catalog', catalog, '--data', nifty, '--param', 'qty=1'])).rejects.toThrow(/tarang data import/);
    await expect(backtestCli(['--catalog', catalog, '--instrument', 'NIFTY', '--columns', 'date,open', '--param', 'qty=1'])).rejects.toThrow(/--columns: reads CSV files/);
  });
});
