/**
 * `tarang backtest`: a strategy over history, from CSV files or from the broker (current
 * instruments by scrip code, expired contracts by trading symbol), with costs, a JSON and an HTML
 * report, or a parameter sweep on all cores. See backtest/README.md. This file declares the
 * command; ../actions/backtest.ts runs it (loaded only then).
 */
import { Option, type Command } from 'commander';
import { RANK_METRICS } from '../../../backtest/sweep/sweep-rank.js';
import { lazyAction } from '../lazy-action.js';
import { addCsvReadingOptions, collect } from './csv-flags.js';

export function register(program: Command): void {
  const cmd = program
    .command('backtest')
    .description('run a strategy over historical candles (CSV files, the broker, or expired contracts) or a session recording\'s ticks, and report fills, trades and metrics')
    .option('--data <file|folder>', 'candle CSV file, or a folder of them (repeatable); a Symbol column holds several instruments', collect)
    .option('--catalog <dir>', 'the candle catalog (default ~/.tarang/catalog): the source with --instrument, where downloads go with --symbol/--expired')
    .option('--symbol <code>', 'scrip code to download through the broker (repeatable), e.g. NSE_2885', collect)
    .option('--expired <trading_symbol>', 'expired F&O contract by trading symbol (repeatable), e.g. NIFTY24DEC24000CE', collect)
    .option('--expired-expiry <underlying:date>', 'an option strategy on one expired expiry, e.g. NIFTY:2026-11-18: its contracts near the underlying and their candles (default interval 1minute)')
    .option('--strikes <n>', 'with --expired-expiry: strikes beyond the underlying\'s range loaded on each side', '10')
    .addOption(new Option('--segment <segment>', 'segment of --expired / --expired-expiry contracts (default: BFO for SENSEX and BANKEX, else NFO)').choices(['NFO', 'BFO']))
    .option('--interval <interval>', 'candle interval (required with --symbol/--expired; inferred for CSV)')
    .option('--from <date>', 'first day, YYYY-MM-DD (IST)')
    .option('--to <date>', 'last day, YYYY-MM-DD (IST), inclusive')
    .option('--instrument <id>', 'with --catalog: a series to read (repeatable); with --data: the id of a one-instrument CSV (default: the file name)', collect);
  addCsvReadingOptions(cmd)
    .option('--tick <rupees>', 'tick size of CSV instruments (default 0.05)')
    .option('--lot <n>', 'lot size of CSV instruments without one (default: an index contract named by trading symbol gets the lot of its expiry month, config/market-rules/lot-sizes.yaml; a stock contract needs it; else 1)')
    .option('--strategy <name|file>', 'strategy name, or a strategy file (.ts/.js; relative, absolute or file: URL)', 'sma-cross')
    .option('--param <name=value>', 'strategy parameter (repeatable)', collect)
    .option('--strategies <file.yaml>', 'several strategies sharing one account, listed as in the daemon\'s config (strategies: id, strategy, params, universe); results per strategy beside the account')
    .option('--cash <rupees>', 'starting cash in rupees: 1000000, "10,00,000" or "10 lakh"', '1000000')
    .option('--charges <preset>', 'none, auto, equity-delivery, equity-intraday, futures, options, or a YAML file', 'auto')
    .addOption(new Option('--both-touched <rule>', 'a candle reaching both a stop and a target').choices(['pessimistic', 'optimistic', 'ohlc-path']).default('pessimistic'))
    .option('--slippage <ticks>', 'adverse slippage on market fills, in ticks', '0')
    .option('--partial-fills <share>', 'cap our fills at this share of each candle\'s volume, e.g. 0.1')
    .option('--market-protection <pct>', 'MARKET orders work as LIMIT at last price +/- this %, as the broker converts them (default 3, config/market-rules/retail-algo.yaml)')
    .addOption(new Option('--trailing <mode>', 'trailing stops trailed by the venue model or emulated by the engine').choices(['native', 'emulated']).default('native'))
    .option('--square-off <segment=HH:MM>', 'the broker\'s intraday square-off time, e.g. EQUITY=15:15 (repeatable; default config/market-rules/square-off.yaml: EQUITY 15:20, FNO 15:25)', collect)
    .option('--intraday-exit <HH:MM|off>', 'the engine exits INTRADAY positions itself at this time (default: 5 minutes before each segment\'s square-off)')
    .option('--auto-slice', 'place F&O orders above the freeze quantity as slices (at most 10) instead of having them denied (config/market-rules/freeze-quantities.yaml)')
    .option('--json <file>', 'write the JSON report')
    .option('--html <file>', 'write the self-contained HTML report (with --sweep: the sweep report, a heatmap and the ranked table)')
    .addOption(
      new Option('--sweep [name=from..to:step]', 'sweep a parameter (repeatable; also name=a,b,c); a bare name takes the strategy\'s declared range, --sweep alone every declared parameter')
        .argParser(collect)
        .preset(''),
    )
    .option('--rank <metric>', `rank sweep results by ${RANK_METRICS.join(', ')}`, 'sharpe')
    .option('--walk-forward <train=LEN,test=LEN>', 'optimise on each train window (a sweep: --sweep, or the declared space) and run the choice on the test window after it, e.g. train=6mo,test=1mo or train=120d,test=30d (units d, w, mo, y)')
    .option('--walk-forward-rank <metric>', `the metric that chooses each window's parameters (default: --rank): ${RANK_METRICS.join(', ')}`)
    .option('--workers <n>', 'sweep worker threads (default: all cores)')
    .option('--queue <url>', 'run the sweep on the workers of this Redis queue (tarang worker --queue URL), e.g. redis://10.0.0.5:6379/0')
    .option('--queue-name <name>', 'with --queue: the queue within that Redis (default tarang-sweep; as given to tarang worker --queue-name)')
    .option('--chunk <n>', 'with --queue: combinations per job (default: about 200 jobs, at most 50 each)')
    .option('--top <n>', 'sweep rows to print', '10')
    .option('--heatmap <x,y>', 'the two swept parameters on the sweep report\'s heatmap (default: the first two --sweep)')
    .option('--from-recording <file>', "a session recording (a daemon's events-YYYY-MM-DD.jsonl): the strategy over its recorded ticks (cash: the session's funds unless --cash)")
    .option('--allow-truncated', 'with --from-recording: read a recording whose last line is torn up to the line before')
    .option('--no-progress', 'no progress bar')
    .option('--no-cache', 'do not read or write downloads in the catalog')
    .action(lazyAction(async () => (await import('../actions/backtest.js')).runBacktest));
}
