/** `tarang account profile|funds|holdings|positions|orders|trades`: the account as the broker sees it. */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { lazyAction } from '../lazy-action.js';

const actions = () => import('../actions/account.js');

export function register(program: Command): void {
  const account = program.command('account').description('read the broker account: profile, funds, holdings, positions, orders, trades');
  withConnection(account.command('profile').description('who you are logged in as: name, client codes, enabled segments')).action(lazyAction(async () => (await actions()).profile));
  withConnection(account.command('funds').description('balances, available margin per segment, P&L and charges')).action(lazyAction(async () => (await actions()).funds));
  withConnection(account.command('holdings').description('equity holdings in the demat account')).action(lazyAction(async () => (await actions()).holdings));
  withConnection(account.command('positions').description('open positions, with symbols and rupees')).action(lazyAction(async () => (await actions()).positions));
  withConnection(account.command('orders').description("the day's order book (as `tarang order book`)"))
    .option('--limit <n>', 'at most this many rows (the latest)')
    .action(lazyAction(async () => (await actions()).orders));
  withConnection(account.command('trades').description("the day's trade book (as `tarang order trades`)"))
    .option('--segment <segment>', 'EQUITY or DERIVATIVE')
    .option('--limit <n>', 'at most this many rows (the latest)')
    .action(lazyAction(async () => (await actions()).trades));
}
