/**
 * Every subcommand, registered in the order `tarang --help` lists them. One line per command
 * file; each file exports `register(program)`.
 */
import type { Command } from 'commander';
import { register as demo } from './demo.js';
import { register as sim } from './sim.js';
import { register as run } from './run.js';
import { register as paper } from './paper.js';
import { register as ctl } from './ctl.js';
import { register as backtest } from './backtest.js';
import { register as replay } from './replay.js';
import { register as report } from './report.js';
import { register as account } from './account.js';
import { register as quote } from './quote.js';
import { register as order } from './order.js';
import { register as instruments } from './instruments.js';
import { register as contracts } from './contracts.js';
import { register as candles } from './candles.js';
import { register as data } from './data.js';
import { register as rules } from './rules.js';
import { register as token } from './token.js';
import { register as worker } from './worker.js';

export function registerCommands(program: Command): void {
  demo(program);
  sim(program);
  run(program);
  paper(program);
  ctl(program);
  backtest(program);
  replay(program);
  report(program);
  worker(program);
  account(program);
  quote(program);
  order(program);
  instruments(program);
  contracts(program);
  candles(program);
  data(program);
  rules(program);
  token(program);
}
