/**
 * Walk-forward optimisation: windows on the calendar (windows.ts), each optimised on its train
 * candles and run with the chosen parameters on the test candles after them (walk-forward-window.ts),
 * the test runs stitched into one out-of-sample run (stitch.ts). This file is only the loop, so the
 * windows can later be handed to a queue one by one without changing what a window computes.
 */
import type { BacktestReportInput } from '../report/backtest-result.js';
import { sliceAll } from './slice-series.js';
import { stitchRuns } from './stitch.js';
import { runWindow, type WalkForwardJob, type WindowRun } from './walk-forward-window.js';
import { planWindows, sessionDates, windowMs, type WalkForwardSpec, type WalkForwardWindow } from './windows.js';

export type { WalkForwardJob, WindowRun } from './walk-forward-window.js';

export interface WalkForwardOptions extends WalkForwardJob {
  readonly spec: WalkForwardSpec;
  /** Before each window (1-based) of `total`, and as its train sweep progresses. */
  readonly onWindow?: (w: WalkForwardWindow, total: number) => void;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface WalkForwardResult {
  readonly spec: WalkForwardSpec;
  readonly windows: readonly WindowRun[];
  /** The out-of-sample test windows as one run. */
  readonly stitched: BacktestReportInput;
}

/** The windows the data allows (no run): for `--walk-forward` previews and tests. */
export function walkForwardWindows(o: Pick<WalkForwardOptions, 'series' | 'spec'>): WalkForwardWindow[] {
  return planWindows(sessionDates(o.series.map((s) => s.start)), o.spec);
}

export async function walkForward(o: WalkForwardOptions): Promise<WalkForwardResult> {
  const windows = walkForwardWindows(o);
  const runs: WindowRun[] = [];
  for (const w of windows) {
    o.onWindow?.(w, windows.length);
    runs.push(await runWindow(o, w, o.onProgress));
  }
  const span = sliceAll(o.series, windowMs(windows[0]!.testFrom), windowMs(windows[windows.length - 1]!.testTo));
  const stitched = stitchRuns(
    runs.map((r) => r.test),
    span,
    { ...o.params, walk_forward: 'chosen per window' },
  );
  return { spec: o.spec, windows: runs, stitched };
}
