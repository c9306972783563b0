/** `tarang paper --config config/paper.yaml`: the daemon against the broker simulator (what `npm start` runs). */
import type { Command } from 'commander';
import { configPath } from '../../core/paths.js';
import type { CliFlags } from '../../daemon/run-cli.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  program
    .command('paper')
    .description('paper trading: the daemon against the built-in simulator over real HTTP/WebSocket, at an accelerated clock')
    .option('-c, --config <file>', 'daemon config', configPath('paper.yaml'))
    .option('--speed <x>', 'simulated seconds per real second (overrides paper.speed)')
    .option('--duration <time>', 'simulated time to run, e.g. 30m or 2h (default: to the session close)')
    .option('--store <url>', 'state store: memory or redis://host:port/db (overrides the config)')
    .option('--ops-port <port>', 'port of /health, /metrics and the control API (0: any free port)')
    .option('--strategy <name|file>', "run this strategy instead of the config's (a name, or a .ts/.js file relative to the current folder)")
    .option('--param <name=value>', 'parameter of --strategy (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--no-status', 'no terminal status line')
    .option('--log-level <level>', 'fatal, error, warn, info, debug or trace')
    .action(lazyAction(async () => {
      const { runFromCli } = await import('../../daemon/run-cli.js');
      return async (flags: CliFlags) => runFromCli('paper', flags);
    }));
}
