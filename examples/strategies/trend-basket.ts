/**
 * A basket of instruments in one strategy: hold each instrument while its close is above its EMA,
 * sized by a rupee budget per instrument, all sharing one account.
 *
 *   tarang backtest --data ../shared/data/nse-daily/nifty50_stocks_bhavcopy_2018H1.csv \
 *     --strategy ./examples/strategies/trend-basket.ts --param budget=50000 --param period=20
 *
 * `instruments` lists the scrip codes (in YAML a list, on the command line `A,B,C`); the backtester
 * gives it every loaded instrument when left out. On each closed candle of an instrument: close
 * above EMA(period) while flat buys as many whole lots as `budget` pays for at the close; close
 * below the EMA sells the position. Orders are MARKET; one working order per instrument at most.
 */
import { cfg, defineStrategy, isInterval, toRupees, z, type Interval } from 'tarang/strategy';
import { indicators, type CandleIndicator } from 'tarang/indicators';

const list = z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v), z.array(z.string().min(1)).min(1));

export const definition = defineStrategy({
  name: 'trend-basket',
  description: 'hold each instrument of a basket while its close is above its EMA, a rupee budget each',
  params: z
    .object({
      instruments: list,
      interval: z.string().refine(isInterval, { message: 'not a candle interval (e.g. 1minute, 5minute, 1day)' }).default('1day'),
      period: z.number().int().min(2).default(20),
      budget: cfg.rupees(),
      product: z.enum(['CNC', 'INTRADAY', 'MARGIN']).default('CNC'),
    })
    .strict(),
  create(p) {
    const interval = p.interval as Interval;
    const ema = new Map<string, CandleIndicator<number>>(p.instruments.map((i) => [i, indicators.ema(p.period)]));
    return {
      instruments: p.instruments,
      intervals: [interval],
      warmup: p.period,
      onCandle(c, ctx) {
        const e = ema.get(c.instrument);
        if (!e || c.interval !== interval) return;
        const avg = e.update(c);
        if (avg === undefined || ctx.warmingUp) return;
        if (ctx.orders.open(c.instrument).length > 0) return;
        const net = ctx.portfolio.netQty(c.instrument);
        const close = toRupees(c.close);
        if (net === 0 && close > avg) {
          const lot = ctx.instruments.get(c.instrument)?.lotSize ?? 1;
          const qty = Math.floor(p.budget / c.close / lot) * lot;
          if (qty > 0) ctx.buy(c.instrument, qty, { product: p.product });
        } else if (net > 0 && close < avg) {
          ctx.sell(c.instrument, net, { product: p.product });
        }
      },
    };
  },
});
