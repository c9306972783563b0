/**
 * `tarang rules import-freeze FILE --as-of YYYY-MM-DD`, `tarang rules ls [--date]`: the dated
 * market rules (docs/market-rules.md). The packaged ones live in config/market-rules/; NSE's stock
 * F&O freeze limits (its `qtyfreeze` file, revised often) are imported by the user, one dated copy
 * per revision under the state folder (~/.tarang/market-rules/stock-freeze/).
 */
import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

const actions = () => import('../actions/rules.js');

export function register(program: Command): void {
  const rules = program.command('rules').description('the dated market rules: freeze quantities, price bands (docs/market-rules.md)');
  const stateDir = (c: Command): Command => c.option('--state-dir <dir>', "tarang's state folder the stock freeze limits are kept in (default $TARANG_HOME or ~/.tarang; a daemon's stateDir if its config sets one)");

  stateDir(
    rules
      .command('import-freeze')
      .description("store NSE's stock F&O freeze limits (the file qtyfreeze.xls from archives.nseindia.com/content/fo/, CSV text) as the revision in force from --as-of")
      .argument('<file>', 'the qtyfreeze file as downloaded (SYMBOL,VOL_FRZ_QTY)')
      .requiredOption('--as-of <date>', 'the trading day the file is in force from, YYYY-MM-DD (the day it was downloaded for)')
      .option('--replace', 'replace a different file already stored for that date')
      .option('--json', 'print JSON instead of text'),
  ).action(lazyAction(async () => (await actions()).importFreeze));

  stateDir(
    rules
      .command('ls')
      .description('the revisions in force on a date: freeze quantities of NSE and BSE indices and of NSE stocks, F&O price bands; and the stored stock revisions')
      .option('--date <date>', 'YYYY-MM-DD (default: today, IST)')
      .option('--json', 'print JSON instead of text'),
  ).action(lazyAction(async () => (await actions()).ls));
}
