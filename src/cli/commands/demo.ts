/** `tarang demo`: what `npm start` runs. */
import type { Command } from 'commander';
import { ABOUT } from '../about.js';

export function register(program: Command): void {
  program
    .command('demo')
    .description('introduce tarang and list its commands (npm start)')
    .action(() => {
      process.stdout.write(`${ABOUT}\n\n`);
      program.outputHelp();
    });
}
