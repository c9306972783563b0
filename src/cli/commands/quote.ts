/** `tarang quote NSE_2885 ...`: quotes for any number of scrip codes (batched, bad codes reported apart). */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  withConnection(
    program
      .command('quote')
      .description('full quotes (or --ltp) for scrip codes such as NSE_2885 NFO_43219 NIDX_13')
      .argument('<codes...>', 'scrip codes, `<PREFIX>_<SECURITY_ID>`')
      .option('--ltp', 'last traded price only'),
  ).action(lazyAction(async () => (await import('../actions/quote.js')).quote));
}
