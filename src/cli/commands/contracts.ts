/** `tarang contracts search|expiries|expired`: derivative contracts and expiries, current and expired. */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { lazyAction } from '../lazy-action.js';

const actions = () => import('../actions/contracts.js');

const searchOptions = (c: Command) =>
  c
    .requiredOption('--underlying <symbol>', 'NIFTY, BANKNIFTY, RELIANCE, ...')
    .option('--expiry <date>', 'YYYY-MM-DD')
    .option('--type <type>', 'OPTIDX, OPTSTK, FUTIDX or FUTSTK')
    .option('--option-type <ce|pe>', 'CE or PE (options only)')
    .option('--strike-from <rupees>', 'lowest strike (options only)')
    .option('--strike-to <rupees>', 'highest strike (options only)')
    .option('--limit <n>', 'stop after this many contracts', '200');

export function register(program: Command): void {
  const contracts = program.command('contracts').description('derivative contracts and expiries, current and expired');

  withConnection(searchOptions(contracts.command('search').description('current contracts (all pages)'))).action(lazyAction(async () => (await actions()).search));

  withConnection(contracts.command('expiries').description('upcoming expiries of an underlying').argument('<underlying>', 'NIFTY, RELIANCE, ...')).action(lazyAction(async () => (await actions()).expiries));

  withConnection(
    searchOptions(contracts.command('expired').description('expired expiries (--from/--to), an expired chain (--expiry), or an expired search (--from/--to with filters)'))
      .option('--from <date>', 'window start, YYYY-MM-DD')
      .option('--to <date>', 'window end, YYYY-MM-DD')
      .option('--expiries', 'list the expired expiries of the window'),
  ).action(lazyAction(async () => (await actions()).expired));
}
