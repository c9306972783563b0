/**
 * `tarang quote HDFCBANK NSE:INFY NSE_2885 ...`: quotes for any number of instruments, each a
 * symbol or a scrip code (batched; codes the broker refuses are reported apart), the trading
 * symbol beside each scrip code.
 */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { lazyAction } from '../lazy-action.js';

export function register(program: Command): void {
  withConnection(
    program
      .command('quote')
      .description('full quotes (or --ltp) for instruments by symbol or scrip code, e.g. HDFCBANK NSE:INFY NFO:NIFTY26DECFUT NSE_2885')
      .argument('<instruments...>', 'symbols (HDFCBANK, NSE:HDFCBANK) or scrip codes (NSE_1333), space- or comma-separated')
      .option('--ltp', 'last traded price only'),
  ).action(lazyAction(async () => (await import('../actions/quote.js')).quote));
}
