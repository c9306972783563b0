/**
 * `tarang sim`: runs the broker simulator until interrupted. The first stdout line is one JSON
 * object (`sim.ready`) with the URLs and the account's secrets, for the process that started it;
 * logs go to stderr and never carry those secrets. For a person, it also prints ready-to-paste
 * `export TARANG_...=` lines on stderr (deliberately, not through the logger: they are the
 * simulator's own made-up credentials), or writes them to `--exports-file FILE` (mode 0600)
 * instead. Not `--env-file`: Node 20 takes that flag for itself wherever it appears on the
 * command line and exits 9.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { lazyAction } from '../lazy-action.js';

function intFlag(name: string, min: number, max: number) {
  return (v: string): number => {
    if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError(`${name}: expected an integer, got ${JSON.stringify(v)}`);
    const n = Number(v);
    if (n < min || n > max) throw new InvalidArgumentError(`${name}: expected ${min}..${max}, got ${n}`);
    return n;
  };
}

function speedFlag(v: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0)) throw new InvalidArgumentError(`--speed: expected a positive number, got ${JSON.stringify(v)}`);
  return n;
}

function startFlag(v: string): number {
  // An ISO time without an offset is IST: the market's time zone, not the machine's.
  const text = /[zZ]|[+-]\d{2}:?\d{2}$/.test(v) || !/T/.test(v) ? v : `${v}+05:30`;
  const ts = Date.parse(/T/.test(text) ? text : `${text}T09:15:00+05:30`);
  if (!Number.isFinite(ts)) throw new InvalidArgumentError(`--start: expected an ISO 8601 time like 2026-11-20T09:15:00+05:30, got ${JSON.stringify(v)}`);
  return ts;
}

export function register(program: Command): void {
  program
    .command('sim')
    .description('run the broker simulator (HTTP + WebSocket on loopback); prints one sim.ready JSON line on stdout')
    .option('--port <n>', 'port to listen on (0 picks a free one)', intFlag('--port', 0, 65_535), 0)
    .option('--host <addr>', 'address to bind', '127.0.0.1')
    .option('--seed <n>', 'seed of the simulated market and universe', intFlag('--seed', -(2 ** 31), 2 ** 31 - 1), 1)
    .option('--speed <x>', 'market ms per wall ms (60 plays a day in 6.25 minutes)', speedFlag, 1)
    .option('--start <iso>', 'market time at start (default 09:15 IST of the current or last trading day)', startFlag)
    .option('--tsl <on|off>', 'trailing stop-loss on smart orders (announced: off accepts and ignores it)', 'off')
    .option('--exports-file <file>', 'write the export TARANG_...= lines to this file (mode 0600) instead of printing them')
    .action(lazyAction(async () => (await import('../actions/sim.js')).runSim));
}
