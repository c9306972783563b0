/**
 * `tarang ctl status|halt|resume|flatten`: talks to a running daemon's control API. The address and
 * token come from flags, else from the daemon's config file (`--config`), else the defaults
 * (127.0.0.1:9464, ~/.tarang/ops.token). The token may also be given as TARANG_OPS_TOKEN.
 */
import type { Command } from 'commander';
import { ControlCommand } from '../../adapters/ops/control-command.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  program
    .command('ctl')
    .description('control a running daemon: status | halt | resume | flatten')
    .argument('<command>', `one of ${Object.values(ControlCommand).join(', ')}`)
    .option('-c, --config <file>', 'the daemon config file (for the ops address and token file)')
    .option('--url <url>', 'the daemon ops endpoint, e.g. http://127.0.0.1:9464')
    .option('--token-file <file>', 'file holding the control token (default ~/.tarang/ops.token)')
    .option('--reason <text>', 'why (halt, flatten); recorded in the daemon log and events')
    .option('--json', 'print the raw JSON answer')
    .action(lazyAction(async () => (await import('../actions/ctl.js')).ctl));
}
