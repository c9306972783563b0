/**
 * `tarang replay RECORDING.jsonl`: a recorded session run again through the backtest engine, and
 * where live and replay part ways (docs/replay.md). This file declares the command;
 * ../actions/replay.ts runs it (loaded only then).
 */
import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  program
    .command('replay')
    .description('run a recorded session through the backtest engine and show where live and replay part ways (docs/replay.md)')
    .argument('<recording>', "a daemon's session recording, e.g. ~/.tarang/recordings/events-2026-11-20.jsonl")
    .option('-c, --config <file>', "replay with this daemon config's strategies, params, risk and execution instead of the recorded ones")
    .option('--json <file>', 'write the diff as JSON')
    .option('--html <file>', 'write a self-contained HTML report')
    .option('--allow-truncated', 'replay a recording whose last line is torn, up to the line before')
    .option('--time-tolerance <ms>', 'fills this many ms of market time apart still count as the same time (default 2000; a paper session at speed S: 50 x S when larger)')
    .option('--all', 'list every divergence on the terminal (default: the first ten)')
    .option('--check', 'exit with code 1 when anything diverged (scripts, CI)')
    .action(lazyAction(async () => (await import('../actions/replay.js')).runReplay));
}
