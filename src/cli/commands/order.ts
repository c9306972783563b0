/**
 * `tarang order place|modify|cancel|book|trades`: what an operator uses to step in by hand.
 *
 * A write goes the engine's way: the same pre-trade risk checks (src/cli/order-risk.ts; a denial
 * ends with its check's code and exit 3), a tag in `remarks` in the tags format under the manual
 * prefix (a daemon leaves such orders alone and says they were placed by hand), and the broker
 * venue's outcomes as values. Before anything is sent the order is shown in rupees (side, qty,
 * symbol, price, product, the broker's margin estimate) and confirmed; `--yes` skips the question
 * and without a terminal nothing is sent unless `--yes` was given. A lost answer is settled by the
 * order book (the tag for a placement, the order's own record for a change), never by sending
 * again: what the book cannot settle ends with exit 5 and what to look at. Exit codes: 0 done,
 * 1 bad input or failure, 2 not confirmed, 3 denied by risk, 4 refused by the broker, 5 unknown.
 */
import type { Command } from 'commander';
import { withConnection } from '../../adapters/broker/connection-flags.js';
import { lazyAction } from '../lazy-action.js';

const actions = () => import('../actions/order.js');

const INSTRUMENT_HELP = 'a symbol (HDFCBANK, NSE:HDFCBANK, NFO:NIFTY26DECFUT) or a scrip code (NSE_1333)';
const ORDER_HELP = 'the order id (as `tarang order book` shows it) or its tag';

export function register(program: Command): void {
  const order = program.command('order').description('place, change and cancel orders by hand (the engine\'s risk checks, a confirmation), and read the order and trade books');

  withConnection(
    order
      .command('place')
      .description('place an order: LIMIT with --price, STOP_LOSS with --trigger, MARKET with --market; a smart order (OCO legs) with --stop-loss and/or --target')
      .argument('<side>', 'BUY or SELL')
      .argument('<qty>', 'quantity in units (for F&O a multiple of the lot size)')
      .argument('<instrument>', INSTRUMENT_HELP)
      .option('--price <rupees>', 'limit price (with --trigger: the limit once triggered)')
      .option('--trigger <rupees>', 'trigger price: a STOP_LOSS order (smart order: a TRIGGER entry)')
      .option('--market', 'a MARKET order (the broker caps it at a protective limit)')
      .option('--product <product>', 'INTRADAY, CNC or MARGIN', 'INTRADAY')
      .option('--validity <validity>', 'DAY or IOC', 'DAY')
      .option('--amo', 'an after-market order')
      .option('--stop-loss <rupees>', 'smart order: the stop-loss leg\'s trigger')
      .option('--stop-loss-limit <rupees>', 'smart order: the stop-loss leg\'s limit (else market once triggered)')
      .option('--target <rupees>', 'smart order: the target leg\'s trigger')
      .option('--target-limit <rupees>', 'smart order: the target leg\'s limit')
      .option('-y, --yes', 'send without asking'),
  ).action(lazyAction(async () => (await actions()).place));

  withConnection(
    order
      .command('modify')
      .description('change a working order\'s quantity, price or trigger (at most 25 modifications an order)')
      .argument('<order>', ORDER_HELP)
      .option('--qty <n>', 'the new total quantity')
      .option('--price <rupees>', 'the new limit price')
      .option('--trigger <rupees>', 'the new trigger price')
      .option('--leg <leg>', 'of a smart order: entry, stop-loss or target', 'entry')
      .option('-y, --yes', 'send without asking'),
  ).action(lazyAction(async () => (await actions()).modify));

  withConnection(
    order
      .command('cancel')
      .description('cancel a working order (a smart order: all its parts)')
      .argument('<order>', ORDER_HELP)
      .option('-y, --yes', 'send without asking'),
  ).action(lazyAction(async () => (await actions()).cancel));

  withConnection(
    order
      .command('book')
      .description("today's orders: IST time, symbol, prices in rupees, status and who placed them")
      .option('--open', 'working orders only')
      .option('--tag <tag>', 'only the order(s) with this tag')
      .option('--limit <n>', 'at most this many rows (the latest)'),
  ).action(lazyAction(async () => (await actions()).book));

  withConnection(
    order
      .command('trades')
      .description("today's trades: IST time, symbol, price and value in rupees")
      .option('--order <id>', 'only the trades of this order')
      .option('--limit <n>', 'at most this many rows (the latest)'),
  ).action(lazyAction(async () => (await actions()).trades));
}

