/**
 * `tarang backtest --walk-forward train=6mo,test=1mo`: the walk-forward (backtest/walk-forward/)
 * with its terminal table, JSON document and HTML page. Loaded only when asked for.
 */
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import { jsonText } from '../../../backtest/report/backtest-result.js';
import { gridOf, type SweepAxis } from '../../../backtest/sweep/sweep-grid.js';
import type { RankMetric } from '../../../backtest/sweep/sweep-rank.js';
import { walkForward, type WalkForwardJob } from '../../../backtest/walk-forward/walk-forward.js';
import { walkForwardHtml, walkForwardJson, walkForwardTableLines, type WalkForwardMeta } from '../../../backtest/walk-forward/walk-forward-report.js';
import { formatSpan, type WalkForwardSpec } from '../../../backtest/walk-forward/windows.js';
import { progressBar } from '../progress-bar.js';

export interface WalkForwardCommand {
  readonly axes: readonly SweepAxis[];
  readonly spec: WalkForwardSpec;
  readonly rank: RankMetric;
  readonly job: Omit<WalkForwardJob, 'grid' | 'rank'>;
  readonly progress: boolean;
  readonly json?: string;
  readonly html?: string;
}

export async function runWalkForward(c: WalkForwardCommand): Promise<void> {
  const swept = c.axes.map((a) => a.name);
  const both = swept.find((n) => c.job.params[n] !== undefined);
  if (both !== undefined) throw new ConfigError(`--param: ${both} is searched by the walk-forward; give it once (leave out --param ${both}=...)`, { name: both });
  const grid = gridOf(c.axes);
  process.stderr.write(`walk-forward: train ${formatSpan(c.spec.train)}, test ${formatSpan(c.spec.test)}; ${grid.length} combinations of ${swept.join(', ')} per train window, ranked by ${c.rank}\n`);
  const bar = progressBar(c.progress, 'train sweep');
  const quiet = c.progress && process.stderr.isTTY; // the bar shows progress; lines would break it
  const result = await walkForward({
    ...c.job,
    grid,
    rank: c.rank,
    spec: c.spec,
    onWindow: (w, total) => {
      if (!quiet) process.stderr.write(`window ${w.index}/${total}: train from ${w.trainFrom}, test ${w.testFrom} to ${w.testTo} (exclusive)\n`);
    },
    onProgress: (d, t) => bar.update(d, t),
  });
  bar.stop();
  const meta: WalkForwardMeta = { strategy: c.job.definition.name, params: c.job.params, swept, rank: c.rank, charges: c.job.charges };
  process.stdout.write(`${walkForwardTableLines(result, meta).join('\n')}\n`);
  if (c.json) writeFileSync(c.json, jsonText(walkForwardJson(result, meta)));
  if (c.html) {
    writeFileSync(c.html, walkForwardHtml(result, meta));
    process.stderr.write(`walk-forward report: ${c.html}\n`);
  }
}
