/**
 * `tarang data import FILE|DIR`, `tarang data ls`, `tarang data query "SQL"`: the candle catalog
 * (src/adapters/catalog, docs/catalog.md). Import reads CSV files with the backtester's loader and
 * its flags (the same cleaning as `backtest --data`) and writes each series as Parquet months.
 */
import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { addCsvReadingOptions, collect } from './csv-flags.js';

const actions = () => import('../actions/data.js');

export function register(program: Command): void {
  const data = program.command('data').description('the candle catalog: Parquet per instrument and month, queried with DuckDB (docs/catalog.md)');
  const catalogOption = (c: Command): Command => c.option('--catalog <dir>', 'the catalog folder (default ~/.tarang/catalog, or $TARANG_HOME/catalog)');

  const imp = data
    .command('import')
    .description('import candle CSV files (or folders of them) into the catalog, read as backtest --data reads them; re-importing a month replaces it')
    .argument('<paths...>', 'CSV files or folders')
    .option('--interval <interval>', 'candle interval (inferred from the bar spacing when absent)')
    .option('--instrument <id>', 'instrument id for a one-instrument file (default: the file name, upper case)', collect)
    .option('--json', 'print JSON instead of a table');
  catalogOption(addCsvReadingOptions(imp)).action(lazyAction(async () => (await actions()).importAction));

  catalogOption(data.command('ls').description('list the series in the catalog: instrument, interval, first and last candle, candles, size').option('--json', 'print JSON instead of a table')).action(
    lazyAction(async () => (await actions()).ls),
  );

  catalogOption(
    data
      .command('query')
      .description('run SQL over the catalog with DuckDB: views candles_<interval> (e.g. candles_1minute) and candles; prices in integer paise, time_ist in IST')
      .argument('<sql>', 'e.g. "SELECT instrument, count(*) FROM candles_1minute GROUP BY 1"')
      .option('--json', 'print JSON rows instead of a table'),
  ).action(lazyAction(async () => (await actions()).query));
}
