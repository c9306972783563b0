/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) in turn and
 * prints their figures. A bench file exports `name` and `run(): Promise<BenchResult[]>`. Speed is
 * measured here, never asserted in tests.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchResult {
  /** What was measured, e.g. `bus events/s`. */
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  /** The target the issue sets, if any; the ratio value/target is printed. */
  readonly target?: number;
  /** true when smaller is better (latencies, memory). */
  readonly lowerIsBetter?: boolean;
  readonly note?: string;
}

interface BenchModule {
  name: string;
  run(): Promise<BenchResult[]>;
}

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
/** Benches that a section's name also runs (`backtest` shows the portfolio figures beside the single run's). */
const ALSO: Readonly<Record<string, readonly string[]>> = { backtest: ['portfolio.bench.ts'] };
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o) || (ALSO[o] ?? []).includes(f)))
  .sort();

function fmt(v: number): string {
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return v.toPrecision(4);
}

let failed = false;
for (const f of files) {
  const mod = (await import(pathToFileURL(join(here, f)).href)) as BenchModule;
  process.stdout.write(`\n== ${mod.name ?? basename(f)} ==\n`);
  try {
    for (const r of await mod.run()) {
      let line = `  ${r.metric.padEnd(52)} ${fmt(r.value).padStart(14)} ${r.unit}`;
      if (r.target !== undefined) {
        const ok = r.lowerIsBetter ? r.value <= r.target : r.value >= r.target;
        const ratio = r.lowerIsBetter ? r.target / r.value : r.value / r.target;
        line += `   target ${r.lowerIsBetter ? '<=' : '>='} ${fmt(r.target)} (x${ratio.toFixed(2)} ${ok ? 'ok' : 'MISSED'})`;
      }
      if (r.note) line += `   ${r.note}`;
      process.stdout.write(`${line}\n`);
    }
  } catch (e) {
    failed = true;
    process.stdout.write(`  failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
}
process.exit(failed ? 1 : 0);
