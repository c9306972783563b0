/** Spec 4.8 (wire-gaps "Portfolio, margin"): holdings, positions with filters, margin. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { scripCode } from '../../../core/instruments.js';
import { RateCategory } from '../limits/rate-category.js';
import { inputError } from './api-error.js';
import type { SimContext } from './context.js';
import { getParams } from './get-body.js';
import { holdingWire, marginWire, positionWire } from './record-wire.js';
import type { RouteMeta } from './route-meta.js';
import { parseInput } from './validate.js';
import { toPaise, venueCall, wirePrice } from './wire-input.js';

const positionsQuery = z.object({
  segment: z.enum(['equity', 'derivative'], { error: 'expected equity or derivative (lower case)' }).optional(),
  product: z.enum(['cnc', 'intraday', 'margin'], { error: 'expected cnc, intraday or margin (lower case)' }).optional(),
});

const numeric = z.union([z.number(), z.string().regex(/^\d+$/)]).transform(Number);
const marginQuery = z.object({
  segment: z.enum(['EQUITY', 'DERIVATIVE', 'FNO']),
  exchange: z.enum(['NSE', 'BSE']),
  securityID: z.union([z.string().regex(/^\d+$/, 'expected a numeric id'), z.number().int()]).transform(String),
  txnType: z.enum(['BUY', 'SELL']),
  quantity: numeric.pipe(z.number().int().positive('expected a positive integer')),
  price: wirePrice,
  product: z.enum(['CNC', 'INTRADAY', 'MARGIN']),
});

const read: RouteMeta = { category: RateCategory.NON_TRADING };

export function portfolioRoutes(app: FastifyInstance, ctx: SimContext): void {
  app.get('/portfolio/holdings', { config: read }, async () => ({ status: 'success', data: ctx.venue.holdings().map(holdingWire) }));

  app.get('/portfolio/positions', { config: read }, async (request) => {
    const q = parseInput(positionsQuery, request.query, 'query');
    const rows = ctx.venue.positions().filter((p) => {
      if (q.segment && (p.segment === 'EQUITY' ? 'equity' : 'derivative') !== q.segment) return false;
      if (q.product && p.product.toLowerCase() !== q.product) return false;
      return true;
    });
    return { status: 'success', data: rows.map(positionWire) };
  });

  const margin = async (params: Record<string, unknown>): Promise<unknown> => {
    const q = parseInput(marginQuery, params, 'request');
    const code = scripCode(q.exchange, q.segment === 'EQUITY' ? 'EQUITY' : 'FNO', q.securityID);
    if (!ctx.venue.instrument(code)) throw inputError(`securityID: ${q.securityID} is not a ${q.exchange} ${q.segment} instrument`);
    const price = toPaise(q.price, 'price')!;
    const r = venueCall(() => ctx.venue.margin({ instrument: code, side: q.txnType, qty: q.quantity, price, product: q.product }));
    return { status: 'success', data: marginWire(r) };
  };
  // Spec 4.8 lists GET; clients of the live service also POST the same body.
  app.get('/margin', { config: read }, async (request) => margin(await getParams(request)));
  app.post('/margin', { config: read }, async (request) => margin((request.body ?? {}) as Record<string, unknown>));
}
