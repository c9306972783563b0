/**
 * What `tarang backtest` does (declared in ../commands/backtest.ts): a strategy over history, from CSV files or from the broker (current
 * instruments by scrip code, expired contracts by trading symbol), with costs, a JSON and an HTML
 * report, or a parameter sweep on all cores. See backtest/README.md.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { isInterval, type Interval } from '../../core/candles.js';
import { ConfigError } from '../../core/errors.js';
import { parsePaise, formatInr } from '../../core/money.js';
import { rupeesToPaise } from '../../core/rupee-amount.js';
import { InstrumentTable, parseScripCode } from '../../core/instruments.js';
import type { WallClock } from '../../core/clock.js';
import { resolveStrategy } from '../../strategies/strategy-file.js';
import type { StrategyDefinition } from '../../strategies/strategy.js';
import { missingParams, paramIssueLines } from '../../strategies/params.js';
import { OptionDataFeed, withOptionData } from '../../strategies/options/option-data-feed.js';
import { isOptionStrategy } from '../../strategies/options/option-data.js';
import type { ExpiredContractRow } from '../../strategies/options/chain-from-candles.js';
import type { BrokerClient } from '../../adapters/broker/client.js';
import type { Broker } from '../../adapters/broker/broker.js';
import { backtest } from '../../../backtest/backtest.js';
import { chargeModel } from '../../../backtest/charges/charge-preset.js';
import type { CandleSeries } from '../../../backtest/data/candle-series.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { csvFiles, csvLoadOptions, type CsvFlags } from '../commands/csv-flags.js';
import { describeSummary, type LoadSummary } from '../../../backtest/data/load-summary.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { buildJsonReport, jsonSummary } from '../../../backtest/report/backtest-result.js';
import { writeJsonFile } from '../../../backtest/report/json-file.js';
import { scalar } from '../../../backtest/sweep/sweep-grid.js';
import { resolveSweepAxes } from '../../../backtest/sweep/declared-axes.js';
import { RANK_METRICS, isRankMetric } from '../../../backtest/sweep/sweep-rank.js';
import type { BacktestSettings } from '../../../backtest/runner.js';
import { printByInstrument, printMetrics } from './backtest-summary.js';
import { progressBar } from '../progress-bar.js';
import { formatZodIssues } from '../../core/zod-issues.js';
import { IntradayExitAtInput, SquareOffTimesInput } from '../../risk/rules/square-off.js';
import type { SweepFlags } from './backtest-sweep.js';

/** The backtest's flags: the CSV reading ones, the sweep's (backtest-sweep.ts), and its own. */
export interface BacktestFlags extends CsvFlags, SweepFlags {
  data?: string[];
  catalog?: string;
  symbol?: string[];
  expired?: string[];
  expiredExpiry?: string;
  strikes: string;
  segment?: 'NFO' | 'BFO';
  from?: string;
  to?: string;
  tick?: string;
  lot?: string;
  strategy: string;
  strategies?: string;
  cash: string;
  bothTouched: 'pessimistic' | 'optimistic' | 'ohlc-path';
  slippage: string;
  partialFills?: string;
  marketProtection?: string;
  trailing: 'native' | 'emulated';
  squareOff?: string[];
  intradayExit?: string;
  autoSlice?: boolean;
  walkForward?: string;
  walkForwardRank?: string;
  cache: boolean;
  fromRecording?: string;
  allowTruncated?: boolean;
}

function flagError(flag: string, message: string): ConfigError {
  return new ConfigError(`--${flag}: ${message}`, { flag });
}

function positiveNumber(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw flagError(flag, `expected a positive number, got ${JSON.stringify(text)}`);
  return n;
}

function wholeNumber(flag: string, text: string, min = 0): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw flagError(flag, `expected a whole number >= ${min}, got ${JSON.stringify(text)}`);
  return n;
}

// Dates (luxon) and walk-forward windows are imported only when their flags are given: a plain
// backtest does not load them.
async function dateFlag(flag: string, text: string): Promise<number> {
  const { parseIstDate } = await import('../../core/date-input.js');
  try {
    return parseIstDate(text);
  } catch {
    throw flagError(flag, `expected a date YYYY-MM-DD, got ${JSON.stringify(text)}`);
  }
}

/** `--square-off EQUITY=15:15` (repeatable): the broker's square-off time per segment. */
function squareOffFlag(items: readonly string[]): Record<string, string> {
  const out = Object.fromEntries(keyValues('square-off', items).map(([k, v]) => [k.toUpperCase(), v]));
  const r = SquareOffTimesInput.safeParse(out);
  if (!r.success) throw flagError('square-off', `${formatZodIssues(r.error)} (expected SEGMENT=HH:MM with SEGMENT one of EQUITY, FNO, CURRENCY)`);
  return out;
}

/** `--intraday-exit 15:10|off`: the engine's own exit of INTRADAY positions before the square-off. */
function intradayExitFlag(text: string): string {
  if (!IntradayExitAtInput.safeParse(text).success) throw flagError('intraday-exit', `expected HH:MM (IST) or off, got ${JSON.stringify(text)}`);
  return text;
}

function keyValues(flag: string, items: readonly string[] = []): Array<[string, string]> {
  return items.map((kv) => {
    const i = kv.indexOf('=');
    if (i <= 0) throw flagError(flag, `expected name=value, got ${JSON.stringify(kv)}`);
    return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()];
  });
}

function schemaKeys(def: StrategyDefinition): Set<string> {
  const shape = (def.params as unknown as { shape?: Record<string, unknown> }).shape;
  return new Set(shape ? Object.keys(shape) : []);
}

interface LoadedData {
  series: CandleSeries[];
  sources: LoadSummary[];
  known?: InstrumentTable;
  /** --expired-expiry: the chain's contracts and the underlying, for `withOptionData`. */
  options?: { contracts: ExpiredContractRow[]; underlying: string; underlyingInstrument: string };
}

async function loadData(f: BacktestFlags, rawParams: Readonly<Record<string, unknown>>): Promise<LoadedData> {
  const download = Boolean(f.symbol?.length || f.expired?.length || f.expiredExpiry);
  // --catalog (or --instrument alone) reads the catalog; next to a download it says where downloads go.
  const readCatalog = !download && !f.data?.length && (f.catalog !== undefined || (f.instrument?.length ?? 0) > 0);
  if (f.data?.length && f.catalog !== undefined) throw flagError('catalog', 'reads candles already in a catalog; to put CSV files in one, run tarang data import FILE');
  const sources = [f.data?.length ? 'data' : undefined, readCatalog ? 'catalog' : undefined, f.symbol?.length ? 'symbol' : undefined, f.expired?.length ? 'expired' : undefined, f.expiredExpiry ? 'expired-expiry' : undefined].filter(Boolean);
  if (sources.length === 0) throw new ConfigError('backtest: give the candles with --data FILE.csv, --catalog DIR --instrument ID, --symbol NSE_2885, --expired <trading_symbol> or --expired-expiry NIFTY:YYYY-MM-DD, or a session recording with --from-recording FILE.jsonl', {});
  if (sources.length > 1) throw new ConfigError(`backtest: use one of --data, --catalog, --symbol, --expired and --expired-expiry, not ${sources.map((s) => `--${s}`).join(' and ')}`, {});
  if (f.interval !== undefined && !isInterval(f.interval)) throw flagError('interval', `not a candle interval: ${f.interval} (e.g. 1minute, 5minute, 1day)`);
  const from = f.from !== undefined ? await dateFlag('from', f.from) : undefined;
  // --to is inclusive of its day for people: 2025-06-30 means through the close of the 30th.
  const to = f.to !== undefined ? (await dateFlag('to', f.to)) + 86_400_000 : undefined;
  if (from !== undefined && to !== undefined && to <= from) throw flagError('to', 'is before --from');

  if (readCatalog) {
    const csvOnly = [f.columns !== undefined ? 'columns' : undefined, f.map?.length ? 'map' : undefined, f.skipBadRows ? 'skip-bad-rows' : undefined].find(Boolean);
    if (csvOnly) throw flagError(csvOnly, 'reads CSV files; the catalog holds series already read (give it to tarang data import)');
    const { loadFromCatalog } = await import('./backtest-catalog.js');
    return loadFromCatalog(f.catalog, f.instrument ?? [], f.interval as Interval | undefined, from, to);
  }
  if (f.data?.length) {
    const opts = csvLoadOptions(f, { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) });
    const series: CandleSeries[] = [];
    const summaries: LoadSummary[] = [];
    for (const file of csvFiles('data', f.data)) {
      const r = loadCsvCandles(file, opts);
      series.push(...r.series);
      summaries.push(r.summary);
    }
    const ids = series.map((s) => s.instrument);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup) throw new ConfigError(`backtest: instrument ${dup} comes from two files; name them apart with --instrument or a symbol column`, { dup });
    return { series, sources: summaries };
  }

  // An option chain is read minute by minute; other intervals are possible but must be asked for.
  if (!f.interval && f.expiredExpiry) f.interval = '1minute';
  if (!f.interval) throw flagError('interval', 'is required with --symbol and --expired');
  if (from === undefined || to === undefined) throw new ConfigError('backtest: --from and --to are required with --symbol, --expired and --expired-expiry', {});
  const { loadBrokerConfig } = await import('../../adapters/broker/config.js');
  const { createBroker } = await import('../../adapters/broker/broker.js');
  const { downloadCatalog } = await import('./backtest-catalog.js');
  const { loadBrokerCandles } = await import('../../../backtest/data/broker-source.js');
  const { resolveExpiredContracts, derivativeSegment } = await import('../../../backtest/data/expired-contracts.js');
  const { defaultStateDir } = await import('../../core/state-dir.js');
  const { WallClock } = await import('../../core/clock.js');
  const { createCliLogger } = await import('../../core/cli-log.js');
  const clock = new WallClock();
  const broker = createBroker(loadBrokerConfig(), {
    clock,
    logger: createCliLogger('backtest'),
    autoRenew: false,
    sharedSession: { stateDir: defaultStateDir() },
  });
  const bar = progressBar(f.progress, 'download');
  try {
    if (f.expiredExpiry) {
      const { parseExpiredExpiry, loadExpiredChain } = await import('../../../backtest/data/expired-chain.js');
      const { underlying, expiry } = parseExpiredExpiry(f.expiredExpiry);
      const underlyingInstrument = typeof rawParams['underlyingInstrument'] === 'string' ? rawParams['underlyingInstrument'] : await indexCode(broker.client, clock, underlying);
      const chain = await loadExpiredChain(broker.client, clock, {
        underlying,
        expiry,
        underlyingCode: underlyingInstrument,
        interval: f.interval as Interval,
        from,
        to,
        strikes: wholeNumber('strikes', f.strikes, 1),
        segment: f.segment ?? derivativeSegment(underlying),
        ...(f.cache ? { catalog: downloadCatalog(f.catalog) } : {}),
        session: f.session,
        onProgress: (_code, d, t) => bar.update(d, t),
      });
      return { series: chain.series, sources: chain.sources, known: new InstrumentTable(chain.instruments), options: { contracts: chain.contracts, underlying, underlyingInstrument } };
    }
    // Expired contracts: their lot size, strike and expiry come from the expired-contract search.
    // Current F&O contracts by scrip code: from the F&O instrument master of the day.
    const known = f.expired?.length
      ? new InstrumentTable(await resolveExpiredContracts(broker.client, f.expired, f.segment))
      : await fnoContractsByCode(broker, clock, f.symbol ?? []);
    const r = await loadBrokerCandles(broker.client, clock, {
      codes: (f.expired?.length ? f.expired : f.symbol) ?? [],
      interval: f.interval as Interval,
      from,
      to,
      ...(f.expired?.length ? { expired: true, segmentOf: (code: string) => (known?.get(code)?.exchange === 'BSE' ? 'BFO' : 'NFO') } : {}),
      ...(f.cache ? { catalog: downloadCatalog(f.catalog) } : {}),
      session: f.session,
      onProgress: (_code, d, t) => bar.update(d, t),
    });
    return { series: r.series, sources: [r.summary], ...(known ? { known } : {}) };
  } finally {
    bar.stop();
    await broker.close();
  }
}

/**
 * The F&O contracts among `codes` (`NFO_43219`, `BFO_...`) as the F&O instrument master of the day
 * lists them: lot size (LOT_UNITS), kind, expiry and strike. Without this a contract named only by
 * its scrip code would be traded as a cash instrument in lots of 1. Undefined when no code is F&O.
 */
async function fnoContractsByCode(broker: Broker, clock: WallClock, codes: readonly string[]): Promise<InstrumentTable | undefined> {
  const fno = codes.filter((c) => parseScripCode(c)?.segment === 'FNO');
  if (fno.length === 0) return undefined;
  const { loadInstrumentMaster } = await import('../../adapters/broker/helpers/instrument-master.js');
  const { cacheDirOf } = await import('../../adapters/broker/cli-support.js');
  const m = await loadInstrumentMaster(broker.client, clock, 'fno', cacheDirOf(broker));
  const byId = new Map(m.instruments.map((i) => [i.id, i]));
  const missing = fno.filter((c) => !byId.has(c));
  if (missing.length) throw flagError('symbol', `${missing.join(', ')}: not in today's F&O instrument master (an expired contract? give it by trading symbol with --expired)`);
  return new InstrumentTable(fno.map((c) => byId.get(c)!));
}

/** Scrip code of an index underlying (`NIFTY` -> `NIDX_13`) from the index instrument master. */
async function indexCode(client: BrokerClient, clock: WallClock, underlying: string): Promise<string> {
  const { loadInstrumentMaster } = await import('../../adapters/broker/helpers/instrument-master.js');
  const m = await loadInstrumentMaster(client, clock, 'index');
  const found = m.instruments.find((i) => i.kind === 'INDEX' && (i.symbol === underlying || i.tradingSymbol === underlying));
  if (!found) throw flagError('expired-expiry', `${underlying} is not an index in the instrument master; give its scrip code with --param underlyingInstrument=NSE_...`);
  return found.id;
}

/** A shell word: as is when safe, else single-quoted. */
const shellWord = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/**
 * `tarang backtest` with the flags the user gave (in the order the command defines them), leaving
 * out `drop`: the reports' settings, so a run can be repeated.
 */
function commandLine(cmd: Command, drop: ReadonlySet<string> = new Set()): string {
  const words = ['tarang', 'backtest'];
  const values = cmd.opts() as Record<string, unknown>;
  for (const o of cmd.options) {
    const key = o.attributeName();
    if (cmd.getOptionValueSource(key) !== 'cli' || !o.long || drop.has(o.long)) continue;
    const v = values[key];
    if (o.negate || typeof v === 'boolean') words.push(o.long);
    else for (const x of Array.isArray(v) ? v : [v]) words.push(o.long, shellWord(String(x)));
  }
  return words.join(' ');
}

/** Flags that only mean something in a sweep: given without --sweep they are an error, not ignored. */
const SWEEP_ONLY = ['rank', 'workers', 'queue', 'queueName', 'chunk', 'top', 'heatmap'] as const;
/** Of those, the ones a walk-forward (a sweep per window) uses too. */
const WALK_FORWARD_TOO: ReadonlySet<string> = new Set(['rank', 'workers']);

export async function runBacktest(f: BacktestFlags, cmd: Command): Promise<void> {
  if (f.strategies !== undefined) {
    const clash = (['strategy', 'param', 'sweep', 'walkForward'] as const).find((k) => cmd.getOptionValueSource(k) === 'cli');
    if (clash) throw flagError('strategies', `lists the strategies and their params; leave out --${clash.replace('walkForward', 'walk-forward')}`);
  }
  if (f.walkForward !== undefined) {
    const given = ['top', 'heatmap'].filter((k) => cmd.getOptionValueSource(k) === 'cli');
    if (given.length) throw flagError(given[0]!, 'applies to a plain sweep, not to --walk-forward (its report lists every window)');
  } else if (f.walkForwardRank !== undefined) throw flagError('walk-forward-rank', 'applies to --walk-forward only');
  if (!f.sweep?.length) {
    // Flag names as typed (queueName is --queue-name).
    const given = SWEEP_ONLY.filter((k) => cmd.getOptionValueSource(k) === 'cli' && !(f.walkForward !== undefined && WALK_FORWARD_TOO.has(k))).map((k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    if (given.length) throw flagError(given[0]!, `applies to sweeps only; add --sweep name=from..to:step, or leave out ${given.map((g) => `--${g}`).join(' and ')}`);
  }
  let definition: StrategyDefinition;
  let strategyRef: string;
  try {
    // A registry name, or a file (relative to the current folder, absolute, or a file: URL).
    ({ definition, ref: strategyRef } = await resolveStrategy(f.strategy, process.cwd()));
  } catch (e) {
    throw flagError('strategy', (e as Error).message);
  }
  const cash = (() => {
    // Rupees as in config files: 1000000, "10,00,000", "10 lakh"; never rounded to the paisa.
    const r = rupeesToPaise(f.cash);
    if ('problem' in r) throw flagError('cash', `${r.problem}, got ${JSON.stringify(f.cash)}`);
    if (r.paise <= 0) throw flagError('cash', `expected an amount in rupees > 0, got ${JSON.stringify(f.cash)}`);
    return r.paise;
  })();
  const charges = chargeModel(f.charges); // validates the preset before any data is read
  if (!isRankMetric(f.rank)) throw flagError('rank', `expected one of ${RANK_METRICS.join(', ')}, got ${JSON.stringify(f.rank)}`);
  const settings: BacktestSettings = {
    cash,
    bothTouched: f.bothTouched,
    slippageTicks: wholeNumber('slippage', f.slippage),
    trailing: f.trailing,
    ...(f.marketProtection !== undefined ? { marketProtectionPct: positiveNumber('market-protection', f.marketProtection) } : {}),
    ...(f.partialFills !== undefined ? { participationRate: positiveNumber('partial-fills', f.partialFills) } : {}),
    ...(f.squareOff?.length ? { squareOff: squareOffFlag(f.squareOff) } : {}),
    ...(f.intradayExit !== undefined ? { intradayExitAt: intradayExitFlag(f.intradayExit) } : {}),
    ...(f.autoSlice ? { autoSlice: true } : {}),
  };
  if (settings.participationRate !== undefined && settings.participationRate > 1) throw flagError('partial-fills', 'is a share of each candle\'s volume, at most 1 (e.g. 0.1)');

  const params: Record<string, unknown> = {};
  for (const [k, v] of keyValues('param', f.param)) params[k] = scalar(v);
  if (f.fromRecording !== undefined) {
    const { backtestRecording } = await import('./backtest-recording.js');
    return backtestRecording({ file: f.fromRecording, flags: f, given: (k) => cmd.getOptionValueSource(k) === 'cli', definition, params, settings, cash, command: commandLine(cmd) });
  }
  if (f.expiredExpiry && f.sweep?.length) throw flagError('sweep', 'is not available with --expired-expiry yet; run one parameter set at a time');
  if (f.expiredExpiry && f.walkForward !== undefined) throw flagError('walk-forward', 'is not available with --expired-expiry yet');
  // Checked before any candle is read.
  const walkForwardSpec = f.walkForward !== undefined ? (await import('../../../backtest/walk-forward/windows.js')).parseWalkForward(f.walkForward) : undefined;
  const walkForwardRank = f.walkForwardRank ?? f.rank;
  if (!isRankMetric(walkForwardRank)) throw flagError('walk-forward-rank', `expected one of ${RANK_METRICS.join(', ')}, got ${JSON.stringify(walkForwardRank)}`);
  // The grid: the ranges given, or the strategy's declared space (a walk-forward without --sweep searches all of it).
  const fixed = new Set(keyValues('param', f.param).map(([k]) => k));
  const axes = f.sweep?.length || walkForwardSpec ? resolveSweepAxes(f.sweep?.length ? f.sweep : [''], definition, fixed) : [];
  const { series, sources, known, options } = await loadData(f, params);
  for (const s of sources) process.stderr.write(`${describeSummary(s)}\n`);
  const tickSize = f.tick !== undefined ? parsePaise(f.tick, '--tick') : undefined;
  const lotSize = f.lot !== undefined ? wholeNumber('lot', f.lot, 1) : undefined;
  const instruments = instrumentsForSeries(series, { ...(tickSize !== undefined ? { tickSize } : {}), ...(lotSize !== undefined ? { lotSize } : {}) }, known);

  if (f.strategies !== undefined) {
    const { runStrategiesFile } = await import('./backtest-strategies-run.js');
    await runStrategiesFile({ file: f.strategies, series, instruments, sources, settings, charges: f.charges, command: commandLine(cmd), json: f.json, html: f.html, progress: f.progress });
    return;
  }
  const keys = schemaKeys(definition);
  if (options) {
    // The strategy trades the loaded chain: it builds each snapshot from the closes seen so far.
    if (keys.has('underlying') && params['underlying'] === undefined) params['underlying'] = options.underlying;
    if (keys.has('underlyingInstrument') && params['underlyingInstrument'] === undefined) params['underlyingInstrument'] = options.underlyingInstrument;
    definition = optionDataDefinition(definition, options.contracts);
  }
  // Several instruments: a one-instrument strategy runs once per instrument (`instrument=ALL`, the
  // default when the data holds several), every instance trading the one account; a strategy with
  // an `instruments` list gets them all. One instrument: the strategy gets it.
  const ids = series.map((s) => s.instrument);
  const perInstrument = keys.has('instrument') && (params['instrument'] === 'ALL' || (params['instrument'] === undefined && ids.length > 1));
  if (keys.has('instruments') && params['instruments'] === undefined) params['instruments'] = ids;
  if (keys.has('instrument') && params['instrument'] === undefined && !perInstrument) params['instrument'] = ids[0]!;
  if (keys.has('interval') && params['interval'] === undefined) params['interval'] = series[0]!.interval;
  const instances = perInstrument ? ids.map((id) => ({ id: `${definition.name}-${id}`, params: { ...params, instrument: id } })) : undefined;
  for (const p of instances?.map((i) => i.params) ?? [params]) {
    const parsed = definition.params.safeParse(p);
    if (!parsed.success) {
      const missing = missingParams(parsed.error, p);
      const hint = missing.length > 0 ? ` (give ${missing.map((m) => `--param ${m}=...`).join(' ')})` : '';
      throw flagError('param', `${definition.name}: ${paramIssueLines(parsed.error, p, { root: '(params)' }).join('; ')}${hint}`);
    }
  }
  if (instances && walkForwardSpec) {
    throw flagError('walk-forward', `runs one instrument; this data holds ${ids.length} (${ids.slice(0, 3).join(', ')}, ...): pick one with --param instrument=${ids[0]}`);
  }

  if (walkForwardSpec) {
    const { runWalkForward } = await import('./backtest-walk-forward.js');
    await runWalkForward({
      axes,
      spec: walkForwardSpec,
      rank: walkForwardRank,
      job: { series, instruments, definition, strategy: strategyRef, params, settings, charges: f.charges, ...(f.workers !== undefined ? { workers: wholeNumber('workers', f.workers, 1) } : {}) },
      progress: f.progress,
      ...(f.json !== undefined ? { json: f.json } : {}),
      ...(f.html !== undefined ? { html: f.html } : {}),
    });
    return;
  }

  if (f.sweep?.length) {
    const { runSweepCommand } = await import('./backtest-sweep.js');
    await runSweepCommand(f, { axes, definition, strategyRef, params, settings, series, instruments: [...instruments.values()], ...(instances ? { perInstrument: ids } : {}), baseCommand: commandLine(cmd, new Set(['--sweep', '--rank', '--workers', '--queue', '--queue-name', '--chunk', '--top', '--heatmap', '--json', '--html'])) });
    return;
  }

  const bar = progressBar(f.progress && series.reduce((a, s) => a + s.length, 0) >= 200_000, 'backtest');
  const out = await backtest({ definition, params, series, instruments, charges, sources, ...settings, command: commandLine(cmd), ...(instances ? { instances } : {}), onProgress: (d, t) => bar.update(d, t) });
  bar.stop();
  // Every fill and trade (made row by row as the file is written) and the daily equity curve,
  // only for a file that holds them.
  const doc = f.json ? buildJsonReport(out.report, { lazyRows: true }) : jsonSummary(out.report);
  if (out.byInstrument.length > 1) {
    doc['by_instrument'] = out.byInstrument.map((r) => ({ instrument: r.instrument, fills: r.fills, trades: r.trades, wins: r.wins, net_pnl: r.netPnl / 100, charges: r.charges / 100, open_qty: r.openQty }));
    printByInstrument(out.byInstrument);
  }
  printMetrics(doc, out.metrics);
  if (f.json) writeJsonFile(f.json, doc);
  if (f.html) writeFileSync(f.html, (await import('../../../backtest/report/html-report.js')).buildHtmlReport(out.report));
  if (out.run.fills.length === 0) process.stderr.write(`note: no fills; final equity ${formatInr(cash)} is the starting cash\n`);
}

/**
 * The definition with each instance wrapped by `withOptionData` over a chain's contracts (the same
 * mechanism the daemon uses with live chains). Only for strategies that declare `optionChains`.
 */
function optionDataDefinition(def: StrategyDefinition, contracts: readonly ExpiredContractRow[]): StrategyDefinition {
  return {
    ...def,
    create: (p, info) => {
      const s = def.create(p, info);
      if (!isOptionStrategy(s)) throw flagError('expired-expiry', `strategy ${def.name} declares no optionChains; --expired-expiry is for option strategies such as short-straddle`);
      return withOptionData(s, new OptionDataFeed(), { contracts });
    },
  };
}
