// One read of `bench/catalog.bench.ts` in a process of its own, so the read is what a backtest
// does: the first and only read in a fresh process (cold code, fresh memory), on the compiled
// JavaScript in dist/ that `tarang` runs (the bench brings dist/ up to date first). Plain
// JavaScript, so no TypeScript loader runs beside the read. Modules are loaded before the clock
// starts (start-up is the start-up bench's).
//
//   node bench/catalog-read.child.mjs csv FILE
//   node bench/catalog-read.child.mjs catalog DIR INSTRUMENT
//   node bench/catalog-read.child.mjs touch BYTES
//
// `touch` is the floor under any read of a new series: fresh memory of the columns' size, one
// write per page (the kernel's page faults, which neither the CSV parser nor the catalog avoids).
//
// Prints one JSON line (ReadChildResult in catalog.bench.ts): wall and CPU ms of the read (process
// CPU: every thread, user + system), minor page faults, the candle count, a SHA-256 of the
// columns the backtest consumes (so the parent checks both sources gave the same candles), and
// whether DuckDB's native library got loaded (Linux: /proc/self/maps), which a read of current
// column images must not need, and how many full (mark-compact) collections started inside the
// read: V8 answers tens of megabytes of fresh ArrayBuffers with one at the next allocation that
// takes its slow path, which falls inside the read or just after it, so it explains much of the
// spread between runs.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance, PerformanceObserver, constants } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import process from 'node:process';
import { CandleCatalog } from '../dist/src/adapters/catalog/index.js';
import { loadCatalogCandles } from '../dist/backtest/data/catalog-source.js';
import { loadCsvCandles } from '../dist/backtest/data/csv-candles.js';

const COLUMNS = ['start', 'ts', 'open', 'high', 'low', 'close', 'volume'];

function digest(s) {
  const h = createHash('sha256');
  h.update(`${s.instrument} ${s.interval} ${s.length}\n`);
  for (const k of COLUMNS) h.update(new Uint8Array(s[k].buffer, s[k].byteOffset, s.length * 8));
  return h.digest('hex');
}

function duckdbLoaded() {
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('duckdb');
  } catch {
    return undefined;
  }
}

function touch(bytes) {
  const b = Buffer.allocUnsafeSlow(bytes);
  for (let i = 0; i < bytes; i += 4096) b[i] = 1;
  return b;
}

const [mode, path, instrument] = process.argv.slice(2);
if (!(mode === 'csv' || mode === 'touch' || (mode === 'catalog' && instrument))) throw new Error('usage: catalog-read.child.mjs csv FILE | catalog DIR INSTRUMENT | touch BYTES');
const catalog = mode === 'catalog' ? new CandleCatalog(path) : undefined;

const gcStarts = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcStarts.push(e.startTime);
});
gcObserver.observe({ entryTypes: ['gc'] });

const faults0 = process.resourceUsage().minorPageFault;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let series;
if (mode === 'touch') touch(Number(path));
else series = catalog ? (await loadCatalogCandles(catalog, { instruments: [instrument] })).series[0] : loadCsvCandles(path).series[0];
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const minorFaults = process.resourceUsage().minorPageFault - faults0;

// GC entries reach the observer on a later turn of the event loop.
await setTimeout(20);
gcObserver.disconnect();
const majorGcs = gcStarts.filter((t) => t >= t0 && t <= t0 + wallMs).length;
const result = { majorGcs, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, sysMs: cpu.system / 1000, minorFaults, candles: series?.length ?? 0, digest: series ? digest(series) : '', duckdbLoaded: duckdbLoaded() };
catalog?.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
