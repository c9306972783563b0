/**
 * RSI mean reversion with a LIMIT entry and a stop-loss, as a user writes it in a file of their own:
 *
 *   tarang backtest --data ../shared/data/nse-minute/HDFCBANK_2023_1min.csv \
 *     --strategy ./examples/strategies/rsi-revert.ts --param qty=10 --param interval=5minute
 *
 * When RSI(period) closes below `oversold` while flat, it bids `entryTicks` ticks below the close
 * (a LIMIT order, DAY) and gives the bid `entryCandles` candles to fill before cancelling it.
 * On the first candle after it filled it places a stop-market SELL (`STOP_LOSS` with a trigger and
 * no limit price) `stopPercent` below the average entry price, and exits at market when RSI closes
 * above `exit` (`ctx.exit` cancels the stop first). A stop that fires leaves it flat, ready for the
 * next signal.
 */
import { defineStrategy, isInterval, isTerminalStatus, Rounding, rupeesToTick, z, type Interval, type StrategyContext } from 'tarang/strategy';
import { indicators } from 'tarang/indicators';

export const definition = defineStrategy({
  name: 'rsi-revert',
  description: 'buy an oversold RSI with a limit below the close, stop-loss under the entry, exit when RSI recovers',
  params: z
    .object({
      instrument: z.string().min(1),
      interval: z.string().refine(isInterval, { message: 'not a candle interval (e.g. 1minute, 5minute, 1day)' }).default('5minute'),
      qty: z.number().int().positive(),
      period: z.number().int().min(2).default(14),
      oversold: z.number().min(1).max(99).default(30),
      exit: z.number().min(1).max(99).default(55),
      entryTicks: z.number().int().min(0).default(2),
      entryCandles: z.number().int().positive().default(3),
      stopPercent: z.number().positive().max(50).default(1),
      product: z.enum(['CNC', 'INTRADAY', 'MARGIN']).default('INTRADAY'),
    })
    .strict()
    .refine((p) => p.oversold < p.exit, { message: 'oversold must be below exit', path: ['oversold'] }),
  create(p) {
    const rsi = indicators.rsi(p.period);
    const interval = p.interval as Interval;
    // Tags of the working entry and stop and the candles the entry has waited, in ctx.state: a
    // restarted daemon neither bids twice nor forgets its stop.
    const state = (ctx: StrategyContext): { entry?: string; stop?: string; waited?: number } => {
      ctx.state['rsi'] ??= {};
      return ctx.state['rsi'] as { entry?: string; stop?: string; waited?: number };
    };
    const working = (ctx: StrategyContext, tag: string | undefined): boolean => {
      const o = tag === undefined ? undefined : ctx.orders.get(tag);
      return o !== undefined && !isTerminalStatus(o.status);
    };
    return {
      instruments: [p.instrument],
      intervals: [interval],
      warmup: rsi.warmup,
      onCandle(c, ctx) {
        if (c.instrument !== p.instrument || c.interval !== interval) return;
        const v = rsi.update(c);
        if (v === undefined || ctx.warmingUp) return;
        const s = state(ctx);
        const tick = ctx.instruments.get(p.instrument)?.tickSize ?? 5;
        if (working(ctx, s.entry)) {
          s.waited = (s.waited ?? 0) + 1;
          if (s.waited >= p.entryCandles) ctx.cancel(s.entry!);
          return;
        }
        const net = ctx.portfolio.netQty(p.instrument);
        if (net > 0 && v > p.exit) {
          ctx.exit(p.instrument, p.product); // cancels the stop, then sells at market
          delete s.stop;
        } else if (net > 0 && !working(ctx, s.stop)) {
          // Filled since the last candle (or the stop expired with the session): protect the
          // position with a stop-market SELL below its average price, rounded down to the tick.
          const pos = ctx.portfolio.position(p.instrument)!;
          const avg = pos.openValue / pos.netQty;
          s.stop = ctx.sell(p.instrument, net, { triggerPrice: rupeesToTick((avg * (1 - p.stopPercent / 100)) / 100, tick, Rounding.DOWN), product: p.product });
        } else if (net === 0 && v < p.oversold && ctx.orders.open(p.instrument).length === 0) {
          s.entry = ctx.buy(p.instrument, p.qty, { limitPrice: Math.max(tick, c.close - p.entryTicks * tick), product: p.product });
          s.waited = 0;
        }
      },
    };
  },
});
