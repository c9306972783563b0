/**
 * Spec 4.2-4.5 and 4.9: instrument master CSVs, quotes (full / ltp / mkt, up to 1000 codes, one
 * bad code fails the batch), historical and expired-contract candles, the current option chain,
 * the announced utility endpoints, and the contracts / expiries endpoints. The data services
 * return plain results; this file only serialises them.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { parseScripCode } from '../../../core/instruments.js';
import { RateCategory } from '../limits/rate-category.js';
import { contractsErrorBody, generalErrorBody, type ApiResult, type RawQuery } from '../universe/api-result.js';
import { dataError, inputError } from './api-error.js';
import type { SimContext } from './context.js';
import { getParams } from './get-body.js';
import { depthQuoteWire, fullQuoteWire, ltpQuoteWire } from './market-wire.js';
import type { RouteMeta } from './route-meta.js';
import { parseInput } from './validate.js';
import type { MarketQuote } from './venue.js';

export const MAX_QUOTE_CODES = 1000;

const data: RouteMeta = { category: RateCategory.DATA };
const quotes: RouteMeta = { category: RateCategory.QUOTES };

const instrumentsQuery = z.object({ source: z.enum(['equity', 'fno', 'index'], { error: 'expected equity, fno or index' }) });

/** Query values as single strings (a repeated parameter keeps its last value). */
export function rawQuery(q: unknown): RawQuery {
  const out: Record<string, string | undefined> = {};
  if (q && typeof q === 'object') {
    for (const [k, v] of Object.entries(q as Record<string, unknown>)) {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      if (last !== undefined && last !== null) out[k] = typeof last === 'string' ? last : JSON.stringify(last);
    }
  }
  return out;
}

function send(reply: FastifyReply, r: ApiResult<unknown>, form: 'contracts' | 'general'): FastifyReply {
  if (r.ok) return reply.send({ status: 'success', data: r.data });
  return reply.code(r.error.httpStatus).send(form === 'contracts' ? contractsErrorBody(r.error) : generalErrorBody(r.error));
}

/** All codes or none: the first bad one fails the batch (the live service's behaviour). */
function quoteBatch(ctx: SimContext, query: unknown): Map<string, MarketQuote> {
  const raw = rawQuery(query)['scrip-codes'];
  if (raw === undefined || raw.trim() === '') throw inputError('scrip-codes: is required (comma-separated codes like NSE_2885)');
  const codes = raw.split(',').map((c) => c.trim()).filter((c) => c !== '');
  if (codes.length > MAX_QUOTE_CODES) throw inputError(`scrip-codes: at most ${MAX_QUOTE_CODES} instruments per call, got ${codes.length}`);
  const out = new Map<string, MarketQuote>();
  ctx.venue.prepare(codes);
  for (const code of codes) {
    if (!parseScripCode(code) || code.includes(':')) throw dataError(`scrip-codes: ${JSON.stringify(code)} is not a scrip code like NSE_2885`);
    const q = ctx.venue.quote(code);
    if (!q) throw dataError(`scrip-codes: ${code} is not a known instrument`);
    out.set(code, q);
  }
  return out;
}

function quoteRoute(app: FastifyInstance, ctx: SimContext, path: string, wire: (q: MarketQuote) => Record<string, unknown>): void {
  app.get(path, { config: quotes }, async (request) => {
    const batch = quoteBatch(ctx, request.query);
    const out: Record<string, unknown> = {};
    for (const [code, q] of batch) out[code] = wire(q);
    return { status: 'success', data: out };
  });
}

export function marketRoutes(app: FastifyInstance, ctx: SimContext): void {
  const d = ctx.venue.data;

  app.get('/market/instruments', { config: data }, async (request, reply) => {
    const q = parseInput(instrumentsQuery, request.query, 'query');
    return reply.type('text/csv; charset=utf-8').send(d.masterCsv(q.source));
  });

  quoteRoute(app, ctx, '/market/quotes/full', fullQuoteWire);
  quoteRoute(app, ctx, '/market/quotes/ltp', ltpQuoteWire);
  quoteRoute(app, ctx, '/market/quotes/mkt', depthQuoteWire);

  // Registered before `:interval` so `expired` is not taken for an interval name.
  app.get<{ Params: { interval: string } }>('/market/historical/expired/:interval', { config: data }, async (request, reply) =>
    send(reply, d.expiredHistorical(request.params.interval, rawQuery(request.query)), 'general'),
  );
  app.get<{ Params: { interval: string } }>('/market/historical/:interval', { config: data }, async (request, reply) =>
    send(reply, d.historical(request.params.interval, rawQuery(request.query)), 'general'),
  );

  app.get('/market/option-chain', { config: data }, async (request, reply) => send(reply, d.optionChain(rawQuery(request.query)), 'general'));
  app.get('/option-chain', { config: data }, async (request, reply) => send(reply, d.utilityChain(await getParams(request)), 'general'));
  app.get('/option-chain-symbols', { config: data }, async (request, reply) =>
    send(reply, d.utilityExpiries(await getParams(request)), 'general'),
  );
  app.post('/greeks', { config: data }, async (request, reply) => send(reply, d.greeks(request.body), 'general'));

  app.get('/market/instruments/search', { config: data }, async (request, reply) => send(reply, d.searchContracts(rawQuery(request.query)), 'contracts'));
  app.get('/market/instruments/expiries', { config: data }, async (request, reply) => send(reply, d.listExpiries(rawQuery(request.query)), 'contracts'));
  app.get('/market/instruments/expired/search', { config: data }, async (request, reply) =>
    send(reply, d.searchExpiredContracts(rawQuery(request.query)), 'contracts'),
  );
  app.get('/market/instruments/expired/expiries', { config: data }, async (request, reply) =>
    send(reply, d.listExpiredExpiries(rawQuery(request.query)), 'contracts'),
  );
  app.get('/market/instruments/expired/contracts', { config: data }, async (request, reply) =>
    send(reply, d.expiredContracts(rawQuery(request.query)), 'contracts'),
  );
}
