/** `tarang run --config config/live.yaml`: the live trading daemon. */
import type { Command } from 'commander';
import type { CliFlags } from '../../daemon/run-cli.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  program
    .command('run')
    .description('run the trading daemon live against the broker (strategies from YAML; Ctrl-C stops cleanly)')
    .requiredOption('-c, --config <file>', 'daemon config (see config/live.example.yaml)')
    .option('--duration <time>', 'stop after this much time, e.g. 90m or 6h15m')
    .option('--store <url>', 'state store: memory or redis://host:port/db (overrides the config)')
    .option('--ops-port <port>', 'port of /health, /metrics and the control API (0: any free port)')
    .option('--strategy <name|file>', "run this strategy instead of the config's (a name, or a .ts/.js file relative to the current folder)")
    .option('--param <name=value>', 'parameter of --strategy (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--no-status', 'no terminal status line')
    .option('--log-level <level>', 'fatal, error, warn, info, debug or trace')
    .action(lazyAction(async () => {
      const { runFromCli } = await import('../../daemon/run-cli.js');
      return async (flags: CliFlags) => runFromCli('live', flags);
    }));
}
