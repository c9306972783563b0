/**
 * `sma-cross`: buy `qty` at market when the fast SMA of closes crosses above the slow SMA while
 * flat; sell the whole position at market when it crosses below. One instrument, one interval.
 * Averages of paise are compared exactly; a cross is a change of sign against the last non-zero
 * one (a touch that turns back is no signal).
 * Warm-up is `slow` candles (the slow average is ready on the last of them; the first crossing can
 * show on the next).
 */
import { z } from 'zod';
import { isInterval, type Interval } from '../../core/candles.js';
import { CrossDetector } from '../indicators/cross.js';
import { SMA } from '../indicators/sma.js';
import { defineStrategy } from '../strategy.js';

export const SmaCrossParams = z
  .object({
    instrument: z.string().min(1).describe('scrip code, e.g. NSE_2885'),
    interval: z.string().refine(isInterval, { message: 'not a candle interval (e.g. 1minute, 5minute, 1day)' }).default('1minute'),
    fast: z.number().int().positive().default(10),
    slow: z.number().int().positive().default(30),
    qty: z.number().int().positive(),
    product: z.enum(['CNC', 'INTRADAY', 'MARGIN']).default('INTRADAY'),
  })
  .strict()
  .refine((p) => p.fast < p.slow, { message: 'fast must be shorter than slow', path: ['fast'] });

export type SmaCrossParams = z.output<typeof SmaCrossParams>;

export const smaCross = defineStrategy({
  name: 'sma-cross',
  description: 'buy qty when the fast SMA crosses above the slow SMA while flat; sell all when it crosses below',
  params: SmaCrossParams,
  space: { fast: { from: 5, to: 30, step: 5 }, slow: { from: 20, to: 100, step: 20 } },
  create(p) {
    const fast = new SMA(p.fast);
    const slow = new SMA(p.slow);
    const cross = new CrossDetector();
    const interval = p.interval as Interval;
    return {
      instruments: [p.instrument],
      intervals: [interval],
      warmup: p.slow,
      onCandle(c, ctx) {
        if (c.instrument !== p.instrument || c.interval !== interval) return;
        fast.update(c.close);
        slow.update(c.close);
        if (!slow.ready) return;
        // fast.sum / p.fast vs slow.sum / p.slow, cross-multiplied: integer paise, so a tie is a tie.
        const x = cross.update(fast.sum * p.slow, slow.sum * p.fast);
        if (!x || ctx.warmingUp) return;
        const net = ctx.portfolio.netQty(p.instrument);
        // Do not stack orders: a working order in the instrument means the last signal is still in flight.
        if (ctx.orders.open(p.instrument).length > 0) return;
        if (x === 'above' && net === 0) ctx.buy(p.instrument, p.qty, { product: p.product });
        else if (x === 'below' && net > 0) ctx.sell(p.instrument, net, { product: p.product });
      },
    };
  },
});

export default smaCross;
