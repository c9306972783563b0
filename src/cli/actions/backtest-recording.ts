/**
 * `tarang backtest --from-recording RECORDING.jsonl`: the strategy of `--strategy` (any, not only
 * the recorded one) over a recorded session's ticks (backtest/replay/from-recording.ts), with the
 * same terminal summary and JSON/HTML reports as a candle backtest.
 */
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import { formatInr, type Paise } from '../../core/money.js';
import { InstrumentTable, type Instrument } from '../../core/instruments.js';
import { openRecording } from '../../engine/recording/reader.js';
import type { StrategyDefinition } from '../../strategies/strategy.js';
import { formatZodIssues } from '../../core/zod-issues.js';
import { backtestFromRecording } from '../../../backtest/replay/from-recording.js';
import type { BacktestSettings } from '../../../backtest/runner.js';
import { buildHtmlReport } from '../../../backtest/report/html-report.js';
import { buildJsonReport } from '../../../backtest/report/backtest-result.js';
import { writeJsonFile } from '../../../backtest/report/json-file.js';
import { printByInstrument, printMetrics } from './backtest-summary.js';

export interface FromRecordingArgs {
  readonly file: string;
  readonly flags: { readonly allowTruncated?: boolean; readonly charges: string; readonly json?: string; readonly html?: string };
  /** Whether a flag (commander's attribute name) was given on the command line. */
  readonly given: (flag: string) => boolean;
  readonly definition: StrategyDefinition;
  readonly params: Record<string, unknown>;
  readonly settings: BacktestSettings;
  readonly cash: Paise;
  readonly command: string;
}

/** Flags of candle backtests that mean nothing over recorded ticks. */
const CANDLE_ONLY = ['data', 'catalog', 'instrument', 'symbol', 'expired', 'expiredExpiry', 'interval', 'from', 'to', 'sweep', 'bothTouched', 'partialFills'] as const;

export async function backtestRecording(args: FromRecordingArgs): Promise<void> {
  const clash = CANDLE_ONLY.find((k) => args.given(k));
  if (clash) throw new ConfigError(`--from-recording: replays the recorded ticks; --${clash.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply to it`, { flag: 'from-recording' });
  const a = { ...args, allowTruncated: args.flags.allowTruncated === true, cashGiven: args.given('cash'), charges: args.flags.charges, json: args.flags.json, html: args.flags.html };
  const notes: string[] = [];
  const recording = await openRecording(a.file, { torn: a.allowTruncated ? 'skip' : 'error', onTorn: (line) => notes.push(`line ${line} is torn: read up to line ${line - 1}`) });
  const h = recording.header;
  if (!h.ticks) throw new ConfigError(`${a.file}:1: this session was recorded without ticks (recording.ticks: false); --from-recording needs them`, { file: a.file });
  const table = new InstrumentTable(h.instruments as Instrument[]);
  const ids = h.instruments.map((i) => i.id);
  const shape = (a.definition.params as unknown as { shape?: Record<string, unknown> }).shape;
  const keys = new Set(shape ? Object.keys(shape) : []);
  const params = { ...a.params };
  const perInstrument = keys.has('instrument') && (params['instrument'] === 'ALL' || (params['instrument'] === undefined && ids.length > 1));
  if (keys.has('instruments') && params['instruments'] === undefined) params['instruments'] = ids;
  if (keys.has('instrument') && params['instrument'] === undefined && !perInstrument) params['instrument'] = ids[0];
  if (keys.has('interval') && params['interval'] === undefined) params['interval'] = '1minute';
  const instances = perInstrument ? ids.map((id) => ({ id: `${a.definition.name}-${id}`, params: { ...params, instrument: id } })) : undefined;
  for (const p of instances?.map((i) => i.params) ?? [params]) {
    const parsed = a.definition.params.safeParse(p);
    if (!parsed.success) throw new ConfigError(`--param: ${a.definition.name}: ${formatZodIssues(parsed.error, { root: '(params)' })}`, { flag: 'param' });
  }
  const cash = a.cashGiven ? a.cash : (h.funds?.available ?? a.cash);
  const out = await backtestFromRecording({
    recording,
    instruments: table,
    definition: a.definition,
    params,
    charges: a.charges,
    ...a.settings,
    cash,
    command: a.command,
    ...(instances ? { instances } : {}),
  });
  process.stderr.write(`${a.file}: ${out.ticks.toLocaleString('en-IN')} ticks of ${ids.length} instrument(s) from a ${h.mode} session, replayed in ${(out.run.replayMs / 1000).toFixed(2)} s; starting cash ${formatInr(cash)}${a.cashGiven ? '' : ' (the session\'s funds at start)'}\n`);
  for (const n of notes) process.stderr.write(`note: ${n}\n`);
  const doc = buildJsonReport(out.report, { lazyRows: true });
  doc['source'] = { recording: a.file, mode: h.mode, ticks: out.ticks };
  if (out.byInstrument.length > 1) printByInstrument(out.byInstrument);
  printMetrics(doc, out.metrics);
  if (a.json) writeJsonFile(a.json, doc);
  if (a.html) writeFileSync(a.html, buildHtmlReport(out.report));
  if (out.run.fills.length === 0) process.stderr.write(`note: no fills; final equity ${formatInr(cash)} is the starting cash\n`);
}
