/**
 * A test strategy that keeps one bracket working per instrument on every candle, on any interval
 * (orb-smart is intraday only): the shape of the reference runs of issue 13 (limit entries,
 * stop-market entries, stop-loss and target legs, reversals). Used to check that every fill of a
 * backtest over real data lies inside its candle.
 *
 * Styles: `smart-limit` (LIMIT entry `entryPct` inside the close, legs `legPct` either side),
 * `smart-trigger` (stop-market TRIGGER entry `entryPct` beyond the close, same legs), `stops` (regular orders: a
 * stop-market entry, then a stop-market exit or a limit exit, one order at a time).
 */
import { z } from 'zod';
import type { Interval } from '../../../src/core/candles.js';
import { roundToTick, type Paise } from '../../../src/core/money.js';
import { defineStrategy, type StrategyDefinition } from '../../../src/strategies/strategy.js';

const params = z.object({
  instruments: z.array(z.string()).min(1),
  interval: z.string(),
  style: z.enum(['smart-limit', 'smart-trigger', 'stops']),
  /** Entry distance from the close and leg distance from the entry, percent. */
  entryPct: z.number().positive().default(0.5),
  legPct: z.number().positive().default(2),
});

export const bracketProbe: StrategyDefinition = defineStrategy({
  name: 'bracket-probe',
  description: 'keeps one bracket working per instrument (tests)',
  params,
  create: (p) => {
    let n = 0;
    return {
      instruments: p.instruments,
      intervals: [p.interval as Interval],
      warmup: 0,
      onCandle(c, ctx) {
        if (ctx.orders.open(c.instrument).length > 0) return;
        const inst = ctx.instruments.get(c.instrument)!;
        const tick = inst.tickSize;
        const at = (x: number): Paise => roundToTick(x, tick);
        const product = inst.segment === 'EQUITY' ? 'INTRADAY' : 'MARGIN';
        const qty = inst.lotSize;
        const net = ctx.portfolio.netQty(c.instrument);
        n++;
        if (p.style === 'stops') {
          const id = c.instrument;
          if (net === 0) ctx.submit({ kind: 'place', instrument: id, side: 'BUY', qty, orderType: 'STOP_LOSS', triggerPrice: at(c.close * (1 + p.entryPct / 100)), validity: 'DAY', product });
          else if (n % 2 === 0) ctx.submit({ kind: 'place', instrument: id, side: net > 0 ? 'SELL' : 'BUY', qty: Math.abs(net), orderType: 'STOP_LOSS', triggerPrice: at(c.close * (1 - p.legPct / 200)), validity: 'DAY', product });
          else ctx.submit({ kind: 'place', instrument: id, side: net > 0 ? 'SELL' : 'BUY', qty: Math.abs(net), orderType: 'LIMIT', limitPrice: at(c.close * (1 + p.legPct / 200)), validity: 'DAY', product });
          return;
        }
        if (net !== 0) {
          ctx.exit(c.instrument, product);
          return;
        }
        const dir = n % 2 === 0 ? 1 : -1;
        const entry = at(c.close * (1 - ((p.style === 'smart-limit' ? dir : -dir) * p.entryPct) / 100));
        const sl = at(entry * (1 - (dir * p.legPct) / 100));
        const tgt = at(entry * (1 + (dir * p.legPct) / 100));
        if (sl === entry || tgt === entry || sl <= 0) return;
        ctx.submit({
          kind: 'smart',
          instrument: c.instrument,
          side: dir > 0 ? 'BUY' : 'SELL',
          qty,
          entryType: p.style === 'smart-limit' ? 'LIMIT' : 'TRIGGER',
          ...(p.style === 'smart-limit' ? { limitPrice: entry } : { triggerPrice: entry }),
          stopLoss: { triggerPrice: sl },
          target: { triggerPrice: tgt },
          validity: 'DAY',
          product,
        });
      },
    };
  },
}) as unknown as StrategyDefinition;
