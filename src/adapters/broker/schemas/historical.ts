/**
 * Historical candles (spec 4.2, wire-gaps "Historical candles"). Two forms are accepted:
 *   {"data":{"NSE_3045":{"candles":[{"ts":<s>,"o","h","l","c","v"}]}}}    (current)
 *   {"data":{"candles":[[ts,o,h,l,c,v], ...]}}                           (older, one scrip)
 * `ts` is the candle's open time in epoch seconds; a value above 1e11 is taken as milliseconds
 * (the spec's convention elsewhere), so either unit decodes to the same instant.
 */
import { z } from 'zod';
import { num, optInt, paise } from './common.js';
import type { Paise } from '../../../core/money.js';

export interface WireCandle {
  /** Open time, epoch ms. */
  readonly start: number;
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  readonly close: Paise;
  readonly volume: number;
  readonly oi?: number;
}

const tsMs = num.transform((t) => (t > 1e11 ? Math.round(t) : Math.round(t * 1000)));

const ObjectCandle = z
  .object({ ts: tsMs, o: paise, h: paise, l: paise, c: paise, v: optInt, oi: optInt })
  .transform((c): WireCandle => ({ start: c.ts, open: c.o, high: c.h, low: c.l, close: c.c, volume: c.v ?? 0, ...(c.oi !== undefined ? { oi: c.oi } : {}) }));

const ArrayCandle = z
  .tuple([tsMs, paise, paise, paise, paise], z.unknown())
  .transform((c, ctx): WireCandle => {
    const v = optInt.safeParse(c[5]);
    if (!v.success) {
      ctx.addIssue({ code: 'custom', message: `volume: expected a whole number, got ${JSON.stringify(c[5])}`, path: [5] });
      return z.NEVER;
    }
    return { start: c[0], open: c[1], high: c[2], low: c[3], close: c[4], volume: v.data ?? 0 };
  });

const CandleList = z.array(z.union([ObjectCandle, ArrayCandle]));

/**
 * `data` of a historical answer, normalised to candles per scrip code. `requested` names the scrip
 * when the older one-scrip form carries no key.
 */
export function historicalDataSchema(requested: readonly string[]) {
  return z.union([
    z.object({ candles: CandleList }).transform((d, ctx): Record<string, WireCandle[]> => {
      if (requested.length !== 1) {
        ctx.addIssue({ code: 'custom', message: `an unkeyed candle list cannot answer ${requested.length} scrip codes` });
        return z.NEVER;
      }
      return { [requested[0]!]: d.candles };
    }),
    z.record(z.string(), z.union([z.object({ candles: CandleList }).transform((d) => d.candles), CandleList])),
  ]);
}
