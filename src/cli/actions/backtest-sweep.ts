/**
 * `tarang backtest --sweep ...`: the parameter sweep, on this machine's cores (backtest/sweep/) or,
 * with `--queue URL`, on the workers of a BullMQ queue (backtest/queue/). Both give the same
 * ranked rows, printed as the same table and written as the same JSON and HTML reports.
 */
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import type { Instrument } from '../../core/instruments.js';
import type { StrategyDefinition } from '../../strategies/strategy.js';
import type { CandleSeries } from '../../../backtest/data/candle-series.js';
import { jsonText } from '../../../backtest/report/backtest-result.js';
import { buildSweepHtml, sweepTableLines } from '../../../backtest/report/sweep-report.js';
import { gridOf, type SweepAxis } from '../../../backtest/sweep/sweep-grid.js';
import { runSweep, type RankMetric, type SweepRow } from '../../../backtest/sweep/sweep.js';
import type { SweepJob, SweepParams } from '../../../backtest/sweep/sweep-types.js';
import type { BacktestSettings } from '../../../backtest/runner.js';
import { progressBar } from '../progress-bar.js';
import { queueName, queueUrl } from '../commands/worker.js';

export interface SweepFlags {
  sweep?: string[];
  param?: string[];
  rank: string;
  workers?: string;
  queue?: string;
  queueName?: string;
  chunk?: string;
  top: string;
  heatmap?: string;
  json?: string;
  html?: string;
  charges: string;
  progress: boolean;
}

export interface SweepInput {
  /** The swept parameters: the ranges given, or the strategy's declared space (declared-axes.ts). */
  readonly axes: readonly SweepAxis[];
  readonly definition: StrategyDefinition;
  readonly strategyRef: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly settings: BacktestSettings;
  readonly series: readonly CandleSeries[];
  readonly instruments: readonly Instrument[];
  /** A portfolio sweep: one instance per instrument in every combination. */
  readonly perInstrument?: readonly string[];
  /** The command line without the sweep's own flags, for the HTML report. */
  readonly baseCommand: string;
}

function flagError(flag: string, message: string): ConfigError {
  return new ConfigError(`--${flag}: ${message}`, { flag });
}

function whole(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw flagError(flag, `expected a whole number >= ${min}, got ${JSON.stringify(text)}`);
  return n;
}

/** `--heatmap fast,slow`: two swept parameters for the sweep report's axes. */
function heatmapAxes(text: string, swept: readonly string[]): [string, string] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length !== 2 || parts[0] === parts[1]) throw flagError('heatmap', `expected two different swept parameters, e.g. ${swept.slice(0, 2).join(',') || 'fast,slow'}; got ${JSON.stringify(text)}`);
  const unknown = parts.find((p) => !swept.includes(p));
  if (unknown !== undefined) throw flagError('heatmap', `${unknown} is not swept (swept: ${swept.join(', ')})`);
  return [parts[0]!, parts[1]!];
}

/**
 * The sweep on the queue. Ctrl-C cancels it: its queued jobs are removed, running ones stop after
 * their current combination, and the command exits 130 with no report.
 */
async function onQueue(url: string, f: SweepFlags, job: SweepJob, grid: readonly SweepParams[], onProgress: (d: number, t: number) => void): Promise<SweepRow[] | undefined> {
  const { queueSweep, SweepCancelled } = await import('../../../backtest/queue/queue-sweep.js');
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    const r = await queueSweep({
      url,
      ...(f.queueName !== undefined ? { queue: queueName(f.queueName) } : {}),
      job,
      grid,
      rank: f.rank as RankMetric,
      ...(f.chunk !== undefined ? { chunk: whole('chunk', f.chunk, 1) } : {}),
      onProgress,
      onNote: (line) => void process.stderr.write(`sweep: ${line}\n`),
      signal: abort.signal,
    });
    return r.rows;
  } catch (e) {
    if (!(e instanceof SweepCancelled)) throw e;
    process.stderr.write(`tarang: ${e.message}\n`);
    process.exitCode = 130;
    return undefined;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export async function runSweepCommand(f: SweepFlags, s: SweepInput): Promise<void> {
  const axes = s.axes;
  const grid = gridOf(axes);
  const swept = new Set(axes.map((a) => a.name));
  const both = (f.param ?? []).map((kv) => kv.slice(0, Math.max(0, kv.indexOf('='))).trim()).find((k) => swept.has(k));
  if (both) throw flagError('param', `${both} is swept by --sweep ${both}=...; give it once`);
  if (f.queue !== undefined && f.workers !== undefined) throw flagError('workers', 'sets this machine\'s lanes; with --queue the workers set theirs (tarang worker --concurrency N)');
  if (f.queue === undefined && f.chunk !== undefined) throw flagError('chunk', 'applies to --queue sweeps only');
  if (f.queue === undefined && f.queueName !== undefined) throw flagError('queue-name', 'applies to --queue sweeps only');
  const url = f.queue !== undefined ? queueUrl('--queue', f.queue) : undefined;
  const heatmap = f.heatmap !== undefined ? heatmapAxes(f.heatmap, axes.map((a) => a.name)) : undefined;
  // What every combination shares (filled in for one-instrument strategies), for the report.
  const commonParams = Object.fromEntries(Object.entries(s.params).filter(([k]) => !swept.has(k)));
  const job: SweepJob = { series: s.series, instruments: s.instruments, strategy: s.strategyRef, params: s.params, settings: s.settings, charges: f.charges, ...(s.perInstrument ? { perInstrument: s.perInstrument } : {}) };
  const bar = progressBar(f.progress, url ? 'sweep (queue)' : 'sweep');
  const onProgress = (d: number, t: number): void => bar.update(d, t);
  let rows: SweepRow[] | undefined;
  try {
    rows = url
      ? await onQueue(url, f, job, grid, onProgress)
      : await runSweep({ job, grid, rank: f.rank as RankMetric, ...(f.workers !== undefined ? { workers: whole('workers', f.workers, 1) } : {}), onProgress });
  } finally {
    bar.stop();
  }
  // Cancelled (Ctrl-C): no report, exit 130.
  if (!rows) return;
  const top = whole('top', f.top, 1);
  const names = axes.map((a) => a.name);
  process.stdout.write(`${sweepTableLines(rows, names, f.rank as RankMetric, top).join('\n')}\n`);
  if (f.json) writeFileSync(f.json, jsonText({ report: 'tarang sweep', version: 1, strategy: s.definition.name, params: s.params, rank_by: f.rank, charges: f.charges, rows }));
  if (f.html) {
    writeFileSync(f.html, buildSweepHtml({ strategy: s.definition.name, params: commonParams, axes, rank: f.rank as RankMetric, rows, charges: f.charges, baseCommand: s.baseCommand, ...(heatmap ? { heatmap } : {}) }));
    process.stderr.write(`sweep report: ${f.html}\n`);
  }
}
