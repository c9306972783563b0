/**
 * The `tarang` command line (commander). Each subcommand lives in its own file under
 * src/cli/commands/ and is registered through commands/index.ts.
 */
import { Command } from 'commander';
import { ABOUT } from './about.js';
import { registerCommands } from './commands/index.js';

export function buildProgram(): Command {
  const program = new Command('tarang')
    .description(ABOUT)
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false });
  registerCommands(program);
  return program;
}
