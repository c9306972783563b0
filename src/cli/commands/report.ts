/**
 * `tarang report RECORDING.jsonl`: a recorded paper or live session as the backtest's report plus
 * its orders, denials, alerts and P&L through the day. This file declares the command;
 * ../actions/report.ts runs it (loaded only then).
 */
import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  program
    .command('report')
    .description("a paper or live session's recording as a report: price with fills, equity and drawdown, breakdowns, orders, denials, alerts, P&L through the day")
    .argument('<recording>', "a daemon's session recording, e.g. ~/.tarang/recordings/events-2026-11-20.jsonl")
    .option('--html <file>', 'write a self-contained HTML report (charts inlined, opens offline)')
    .option('--json <file>', 'write the report as JSON (rupees as numbers, times in IST)')
    .option('--charges <preset>', 'price fills the recording holds no charges for: none, auto, equity-delivery, equity-intraday, futures, options, or a YAML file', 'auto')
    .option('--allow-truncated', 'read a recording whose last line is torn, up to the line before')
    .action(lazyAction(async () => (await import('../actions/report.js')).runReport));
}
