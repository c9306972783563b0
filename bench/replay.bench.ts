/**
 * `tarang replay` of a full trading day of 3,000 instruments (issue 19: at least 20x faster than
 * the market ran). The recording is generated here, as a stream of JSONL text a daemon would have
 * written (header, then every instrument's tick every 2 s of market time from 09:15 to 15:30,
 * each instrument's 1-minute candle at every minute close), and read through the recording reader
 * exactly as a file is: parse, the engine with one sma-cross per instrument (3,000 strategies),
 * risk, the matching engine at tick level, then the diff. Generating the text is inside the timed
 * run, so the figure is conservative.
 *
 * The synthetic session has no live decisions of its own, so the diff pairs nothing and lists
 * every replayed decision as one the session never made: the diff's worst case.
 *
 * BENCH_REPLAY_INSTRUMENTS and BENCH_REPLAY_TICK_MS change the size (defaults 3,000 and 2,000).
 */
import { Readable } from 'node:stream';
import { istDateTime } from '../src/core/time.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordingHeaderInput } from '../src/engine/recording/format.js';
import { replaySession } from '../backtest/replay/replay.js';
import type { BenchResult } from './run.js';

export const name = 'replay';

const INSTRUMENTS = Number(process.env['BENCH_REPLAY_INSTRUMENTS'] ?? 3_000);
const TICK_MS = Number(process.env['BENCH_REPLAY_TICK_MS'] ?? 2_000);
const DAY = '2026-11-20';
const OPEN = istDateTime(DAY, '09:15');
const CLOSE = istDateTime(DAY, '15:30');

function header(): RecordingHeaderInput {
  const ids = Array.from({ length: INSTRUMENTS }, (_, i) => `NSE_${10_001 + i}`);
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    ts: OPEN - 60_000,
    mode: 'paper',
    venue: 'paper',
    tagPrefix: 'tr',
    run: 1,
    ticks: true,
    strategies: ids.map((id) => ({ id: `sma-${id}`, strategy: 'sma-cross', ref: 'sma-cross', params: { instrument: id, fast: 5, slow: 20, qty: 1 } })),
    config: { risk: { maxOpenOrders: 10_000 }, execution: {}, shutdown: { onStop: 'none' } },
    instruments: ids.map((id, i) => ({ id, exchange: 'NSE', segment: 'EQUITY', securityId: String(10_001 + i), kind: 'EQUITY', tradingSymbol: `SYN${i}-EQ`, symbol: `SYN${i}`, lotSize: 1, tickSize: 5 })),
    funds: { available: 100_00_00_000_00 },
    positions: [],
    openOrders: 0,
  };
}

/** The recording's text, a time step at a time: each instrument ticks once per step (spread over it), candles at minute closes. */
async function* recordingText(): AsyncGenerator<string> {
  yield `${JSON.stringify(header())}\n`;
  const n = INSTRUMENTS;
  const price = new Float64Array(n);
  const vol = new Float64Array(n);
  const o = new Float64Array(n);
  const hi = new Float64Array(n);
  const lo = new Float64Array(n);
  for (let i = 0; i < n; i++) price[i] = 50_000 + (i % 400) * 500;
  let seed = 12345;
  let minuteStart = OPEN;
  let fresh = true;
  for (let t = OPEN; t < CLOSE; t += TICK_MS) {
    const lines: string[] = [];
    if (t >= minuteStart + 60_000) {
      const end = minuteStart + 60_000;
      for (let i = 0; i < n; i++) lines.push(`{"type":"candle","ts":${end},"instrument":"NSE_${10_001 + i}","interval":"1minute","start":${minuteStart},"open":${o[i]},"high":${hi[i]},"low":${lo[i]},"close":${price[i]},"volume":${vol[i]}}`);
      minuteStart = end;
      fresh = true;
    }
    for (let i = 0; i < n; i++) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      const step = (seed >> 16) % 3;
      const p = (price[i] = price[i]! + (step - 1) * 5);
      vol[i] = vol[i]! + 1 + (seed & 15);
      if (fresh) {
        o[i] = p;
        hi[i] = p;
        lo[i] = p;
      } else {
        if (p > hi[i]!) hi[i] = p;
        if (p < lo[i]!) lo[i] = p;
      }
      const ts = t + Math.floor((i * TICK_MS) / n);
      lines.push(`{"type":"tick","ts":${ts},"instrument":"NSE_${10_001 + i}","ltp":${p},"volume":${vol[i]},"bid":${p - 5},"ask":${p + 5},"bidQty":10,"askQty":10}`);
    }
    fresh = false;
    yield `${lines.join('\n')}\n`;
  }
  yield `{"type":"lifecycle","ts":${CLOSE},"phase":"stopping","source":"daemon","detail":"session over"}\n`;
}

export async function run(): Promise<BenchResult[]> {
  const t0 = performance.now();
  const r = await replaySession({ source: { name: `synthetic ${INSTRUMENTS}-instrument day`, stream: Readable.from(recordingText(), { objectMode: false }) } });
  const ms = performance.now() - t0;
  const marketMs = CLOSE - OPEN;
  const speed = marketMs / ms;
  return [
    { metric: `replay of a full day, ${INSTRUMENTS.toLocaleString('en-IN')} instruments (x market speed)`, value: speed, unit: 'x', target: 20, note: `${(ms / 1000).toFixed(1)} s wall for ${(marketMs / 3_600_000).toFixed(2)} h of market, generation and diff included` },
    { metric: 'recorded events replayed per second', value: (r.run.ticks + r.run.candles) / (ms / 1000), unit: 'events/s', note: `${r.run.ticks.toLocaleString('en-IN')} ticks, ${r.run.candles.toLocaleString('en-IN')} candles` },
    { metric: 'replayed decisions and fills', value: r.run.decisions.length, unit: 'intents', note: `${r.run.fillEvents.length.toLocaleString('en-IN')} fills, ${r.diff.divergences.length.toLocaleString('en-IN')} divergences listed` },
    { metric: 'peak heap after the replay', value: process.memoryUsage().heapUsed / 1_048_576, unit: 'MB', lowerIsBetter: true },
  ];
}
