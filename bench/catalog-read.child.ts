/**
 * One read of `bench/catalog.bench.ts`, in a process of its own, so the read is what a backtest
 * does: the first and only read in a fresh process (cold code, fresh memory), nothing warmed by
 * an earlier read. Modules are loaded before the clock starts (start-up is the start-up bench's).
 *
 *   node --import tsx bench/catalog-read.child.ts csv FILE
 *   node --import tsx bench/catalog-read.child.ts catalog DIR INSTRUMENT
 *   node --import tsx bench/catalog-read.child.ts touch BYTES
 *
 * `touch` is the floor under any read: fresh memory of the columns' size, one write per page (the
 * kernel's page faults, which neither the CSV parser nor the catalog can avoid).
 * Prints one JSON line: wall and CPU ms of the read (process CPU: every thread, user + system),
 * minor page faults, the candle count, a SHA-256 of the columns the backtest consumes (so the
 * parent checks both sources gave the same candles), and whether DuckDB's native library got
 * loaded (Linux: /proc/self/maps), which a read of current column images must not need.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CandleCatalog } from '../src/adapters/catalog/index.js';
import { loadCatalogCandles } from '../backtest/data/catalog-source.js';
import type { CandleSeries } from '../backtest/data/candle-series.js';
import { loadCsvCandles } from '../backtest/data/csv-candles.js';

export interface ReadChildResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly minorFaults: number;
  readonly candles: number;
  readonly digest: string;
  readonly duckdbLoaded: boolean | undefined;
}

const COLUMNS = ['start', 'ts', 'open', 'high', 'low', 'close', 'volume'] as const;

function digest(s: CandleSeries): string {
  const h = createHash('sha256');
  h.update(`${s.instrument} ${s.interval} ${s.length}\n`);
  for (const k of COLUMNS) h.update(new Uint8Array(s[k].buffer, s[k].byteOffset, s.length * 8));
  return h.digest('hex');
}

function duckdbLoaded(): boolean | undefined {
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('duckdb');
  } catch {
    return undefined;
  }
}

/** One byte written in every page of `bytes` of fresh memory. */
function touch(bytes: number): Buffer {
  const b = Buffer.allocUnsafeSlow(bytes);
  for (let i = 0; i < bytes; i += 4096) b[i] = 1;
  return b;
}

const [mode, path, instrument] = process.argv.slice(2);
const catalog = mode === 'catalog' ? new CandleCatalog(path!) : undefined;
if (!(mode === 'csv' || mode === 'touch' || (mode === 'catalog' && instrument))) throw new Error('usage: catalog-read.child.ts csv FILE | catalog DIR INSTRUMENT | touch BYTES');

const faults0 = process.resourceUsage().minorPageFault;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let series: CandleSeries | undefined;
if (mode === 'touch') touch(Number(path));
else series = catalog ? (await loadCatalogCandles(catalog, { instruments: [instrument!] })).series[0]! : loadCsvCandles(path!).series[0]!;
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const minorFaults = process.resourceUsage().minorPageFault - faults0;

const result: ReadChildResult = { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, minorFaults, candles: series?.length ?? 0, digest: series ? digest(series) : '', duckdbLoaded: duckdbLoaded() };
catalog?.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
