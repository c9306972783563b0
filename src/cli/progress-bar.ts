/** The progress bar of long commands (downloads, backtests, sweeps, walk-forwards): on stderr, only on a terminal. */
import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';

export interface ProgressBar {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(enabled: boolean, label: string): ProgressBar {
  if (!enabled || !process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  // cli-progress only for a terminal (CommonJS, loaded on first use like this).
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
