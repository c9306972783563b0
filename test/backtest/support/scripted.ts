/**
 * Test helpers: hand-made candle series and a scripted strategy that submits given intents on
 * seeing given candles, recording what it saw (time, last price) so tests can check that nothing
 * from the future leaks in.
 */
import { z } from 'zod';
import type { Interval } from '../../../src/core/candles.js';
import type { Product } from '../../../src/core/enums.js';
import type { CandleEvent, FillEvent } from '../../../src/core/events.js';
import { istDateTime } from '../../../src/core/time.js';
import { defineStrategy, type IntentDraft, type StrategyContext, type StrategyDefinition } from '../../../src/strategies/strategy.js';
import { seriesFromRows, type CandleSeries } from '../../../backtest/data/candle-series.js';

/** `[HH:MM, open, high, low, close, volume?]` in rupees, 1-minute bars on one IST date. */
export type Bar = readonly [string, number, number, number, number, number?];

export function minuteSeries(instrument: string, date: string, bars: readonly Bar[], interval: Interval = '1minute'): CandleSeries {
  const len = interval === '1minute' ? 60_000 : interval === '5minute' ? 300_000 : 0;
  return seriesFromRows(
    instrument,
    interval,
    bars.map(([hm, o, h, l, c, v]) => {
      const start = istDateTime(date, hm);
      return { start, ts: start + len, open: Math.round(o * 100), high: Math.round(h * 100), low: Math.round(l * 100), close: Math.round(c * 100), volume: v ?? 1_000_000 };
    }),
  );
}

export interface Seen {
  readonly instrument: string;
  readonly start: number;
  readonly ts: number;
  readonly close: number;
  readonly now: number;
  readonly lastPrice: number | undefined;
}

export interface Script {
  /** Key: `${instrument}@${HH:MM of the candle's start}` -> intents to submit on seeing it. */
  readonly on: Readonly<Record<string, readonly IntentDraft[]>>;
  readonly seen: Seen[];
  readonly fills: FillEvent[];
  readonly tags: Record<string, string>;
  /** Optional free hook. */
  readonly each?: (c: CandleEvent, ctx: StrategyContext) => void;
}

function hhmm(ts: number): string {
  const d = new Date(ts + 330 * 60_000);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

export function scripted(instruments: readonly string[], script: Script, intervals: readonly Interval[] = ['1minute']): StrategyDefinition {
  return defineStrategy({
    name: 'scripted',
    description: 'submits scripted intents (tests)',
    params: z.object({}).passthrough(),
    create: () => ({
      instruments,
      intervals,
      warmup: 0,
      onCandle(c, ctx) {
        script.seen.push({ instrument: c.instrument, start: c.start, ts: c.ts, close: c.close, now: ctx.clock.now(), lastPrice: ctx.portfolio.lastPrice(c.instrument) });
        const key = `${c.instrument}@${hhmm(c.start)}`;
        for (const d of script.on[key] ?? []) script.tags[`${key}#${Object.keys(script.tags).length}`] = ctx.submit(d);
        script.each?.(c, ctx);
      },
      onFill(f) {
        script.fills.push(f);
      },
    }),
  }) as unknown as StrategyDefinition;
}

export function newScript(on: Script['on'], each?: Script['each']): Script {
  return { on, seen: [], fills: [], tags: {}, ...(each ? { each } : {}) };
}

export const market = (instrument: string, side: 'BUY' | 'SELL', qty: number, product: Product = 'CNC'): IntentDraft => ({
  kind: 'place',
  instrument,
  side,
  qty,
  orderType: 'MARKET',
  validity: 'DAY',
  product,
});

export const limit = (instrument: string, side: 'BUY' | 'SELL', qty: number, rupees: number, product: Product = 'CNC'): IntentDraft => ({
  kind: 'place',
  instrument,
  side,
  qty,
  orderType: 'LIMIT',
  limitPrice: Math.round(rupees * 100),
  validity: 'DAY',
  product,
});

export const stop = (instrument: string, side: 'BUY' | 'SELL', qty: number, trigger: number, product: Product = 'CNC'): IntentDraft => ({
  kind: 'place',
  instrument,
  side,
  qty,
  orderType: 'STOP_LOSS',
  triggerPrice: Math.round(trigger * 100),
  validity: 'DAY',
  product,
});
