/** The progress bar of long commands (downloads, backtests, sweeps): on stderr, only on a terminal. */
import cliProgress from 'cli-progress';

export interface ProgressBar {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(enabled: boolean, label: string): ProgressBar {
  if (!enabled || !process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
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
