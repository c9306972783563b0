/**
 * `tarang backtest --from-recording RECORDING.jsonl`: any strategy over the market data of a
 * recorded session, tick by tick (tick-runner.ts in `backtest` mode: candles built from the ticks
 * for whatever intervals the strategy asks, fills from the matching engine against each tick), so a
 * new idea can be tried on the exact ticks of a real day. The result is a regular backtest outcome
 * (metrics, JSON and HTML reports of backtest.ts); its price charts are minute bars made from the
 * ticks.
 */
import type { InstrumentLookup } from '../../src/core/instruments.js';
import type { OpenedRecording } from '../../src/engine/recording/reader.js';
import { chargeModel } from '../charges/charge-preset.js';
import { TickBars } from '../data/tick-bars.js';
import { outcomeOf, type BacktestOutcome, type BacktestRequest } from '../backtest.js';
import type { BacktestRun } from '../runner.js';
import { IntradayExitAtInput, squareOffTimes, SquareOffTimesInput } from '../../src/risk/rules/square-off.js';
import { runTickReplay } from './tick-runner.js';

export interface FromRecordingRequest extends Omit<BacktestRequest, 'series' | 'instruments'> {
  readonly recording: OpenedRecording;
  readonly instruments: InstrumentLookup;
}

export interface FromRecordingOutcome extends BacktestOutcome {
  readonly ticks: number;
}

export async function backtestFromRecording(req: FromRecordingRequest): Promise<FromRecordingOutcome> {
  const charges = typeof req.charges === 'string' ? chargeModel(req.charges) : req.charges;
  const strategyId = req.strategyId ?? req.definition.name;
  const instances = req.instances ?? [{ id: strategyId, params: req.params }];
  const bars = new TickBars();
  const run = await runTickReplay({
    recording: req.recording,
    instruments: req.instruments,
    strategies: instances.map((i) => ({ id: i.id, definition: req.definition, params: i.params })),
    cash: req.cash,
    mode: 'backtest',
    charges: (now) => charges.calculator(now),
    ...(req.slippageTicks !== undefined ? { slippageTicks: req.slippageTicks } : {}),
    ...(req.risk ? { risk: req.risk } : {}),
    ...(req.marketProtectionPct !== undefined ? { marketProtectionPct: req.marketProtectionPct } : {}),
    ...(req.squareOff !== undefined ? { squareOff: req.squareOff } : {}),
    ...(req.intradayExitAt !== undefined ? { intradayExitAt: IntradayExitAtInput.parse(req.intradayExitAt) } : {}),
    ...(req.log ? { log: req.log } : {}),
    // Minute bars of every ticking instrument, for the report's price charts.
    onRecorded: ({ event: e }) => {
      if (e.type === 'tick') bars.add(e);
    },
  });
  const series = bars.series();
  const asRun: BacktestRun = {
    // The minute bars made from the ticks (what the report charts).
    candles: series.reduce((a, s) => a + s.length, 0),
    fills: run.fills.map((f) => {
      const sid = run.fillEvents.find((e) => e.tag === f.tag)?.strategyId;
      return sid !== undefined ? { ...f, strategyId: sid } : f;
    }),
    curve: run.curve,
    startingCash: req.cash,
    ...(run.firstTs !== undefined ? { firstStart: run.firstTs } : {}),
    ...(run.lastTs !== undefined ? { lastTs: run.lastTs } : {}),
    denials: denialSummary(run.denials.values()),
    alerts: run.alerts,
    replayMs: run.replayMs,
    instruments: series.map((s) => s.instrument),
    intradayExitTags: run.intradayExitTags,
    squareOff: squareOffTimes(req.squareOff === undefined ? undefined : SquareOffTimesInput.parse(req.squareOff)),
    intradayExitAt: run.engine.intradayExit?.times,
  };
  const out = outcomeOf({ ...req, series, instruments: req.instruments }, charges, asRun);
  return { ...out, ticks: run.ticks };
}

function denialSummary(all: Iterable<{ ts: number; code: string; reason: string }>): BacktestRun['denials'] {
  const byCode: Record<string, number> = {};
  const first: Array<{ ts: number; code: string; reason: string }> = [];
  let count = 0;
  for (const d of all) {
    count++;
    byCode[d.code] = (byCode[d.code] ?? 0) + 1;
    if (first.length < 20) first.push({ ts: d.ts, code: d.code, reason: d.reason });
  }
  return { count, byCode, first };
}
