/**
 * `tarang candles NSE_2885 --interval 5minute --from 2026-01-01 --to 2026-02-01 [--csv FILE]`:
 * historical candles for any range, paged by the interval's maximum range, kept in the candle
 * catalog (`--catalog DIR`, default ~/.tarang/catalog), with a progress bar on a terminal.
 */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { ALL_INTERVALS } from '../../core/candles.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  withConnection(
    program
      .command('candles')
      .description('historical candles for any date range (IST dates; --to is inclusive)')
      .argument('<instrument>', 'a scrip code (NSE_2885) or a symbol (RELIANCE, NSE:RELIANCE)')
      .requiredOption('--interval <interval>', ALL_INTERVALS.join(', '))
      .requiredOption('--from <date>', 'first day, YYYY-MM-DD')
      .requiredOption('--to <date>', 'last day, YYYY-MM-DD (inclusive)')
      .option('--csv <file>', 'write the candles to a CSV file')
      .option('--catalog <dir>', 'the candle catalog downloads go into and are read back from (default ~/.tarang/catalog)')
      .option('--no-cache', 'do not read or write the catalog'),
  ).action(lazyAction(async () => (await import('../actions/candles.js')).candles));
}
