/**
 * The `tarang` command line (commander). Each subcommand lives in its own file under
 * src/cli/commands/ and is registered through commands/index.ts.
 */
import { Command } from 'commander';
import { registerCommands } from './commands/index.js';

export const ABOUT = `tarang: an event-driven algorithmic trading engine for an Indian broker's REST + WebSocket API.
The same strategy code runs live (daemon), on history (backtest) and against the built-in broker simulator (paper).`;

export function buildProgram(): Command {
  const program = new Command('tarang')
    .description(ABOUT)
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false });
  registerCommands(program);
  return program;
}
