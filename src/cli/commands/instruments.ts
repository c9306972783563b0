/** `tarang instruments --source equity|fno|index`: the instrument master, downloaded and cached per day. */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  withConnection(
    program
      .command('instruments')
      .description('list the instruments you can trade (equity, F&O or indices), downloaded once a day')
      .option('--source <source>', 'equity, fno or index', 'equity')
      .option('--search <text>', 'only instruments whose symbol or trading symbol contains this text')
      .option('--limit <n>', 'at most this many rows', '50'),
  ).action(lazyAction(async () => (await import('../actions/instruments.js')).instruments));
}
