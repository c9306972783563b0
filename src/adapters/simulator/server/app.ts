/**
 * The simulator's HTTP server (fastify). Hooks, in request order:
 * 1. onRequest: non-control calls draw the injected faults (timeout: never answered; 5xx).
 * 2. preHandler: injected latency, then token check (403 TokenException), rate limit (429 with
 *    X-RateLimit-* and Retry-After), static IP for order writes; control calls check the admin key.
 * 3. onSend: the `Date` header from the simulator clock, and `X-Sim-Clock-Offset-Ms` (market clock
 *    minus wall clock) so a client checking its clock for TOTP does not take the market clock's
 *    shift for drift; a read whose token died while in flight is answered 403 instead (spec 3.2:
 *    revocation acts on in-flight calls too).
 * 4. onResponse: the request log.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { describeError } from '../../../core/errors.js';
import { RATE_LIMIT_BODY, SimApiError, tokenError, userError } from './api-error.js';
import { SIM_USER_ID, type SimContext } from './context.js';
import type { RateDecision } from '../limits/rate-limiter.js';
import { routeMeta } from './route-meta.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The access token the call was authorised with. */
    simToken?: string;
  }
}

export type RouteModule = (app: FastifyInstance, ctx: SimContext) => void;

export function buildApp(ctx: SimContext, modules: readonly RouteModule[]): FastifyInstance {
  const app = Fastify({
    logger: false,
    // Order and data bodies are small; the greeks array of tokens is the largest.
    bodyLimit: 1024 * 1024,
    keepAliveTimeout: 65_000,
    return503OnClosing: false,
    ajv: { customOptions: { coerceTypes: false } },
  });
  app.decorateRequest('simToken', undefined);

  app.addHook('onRequest', async (request, reply) => {
    const meta = routeMeta(request);
    if (meta.control) return;
    const f = ctx.faults;
    if (f.timeoutRate > 0 && ctx.random() < f.timeoutRate) {
      ctx.held.hold(request, reply);
      return reply;
    }
    if (f.errorRate > 0 && ctx.random() < f.errorRate) {
      reply.code(503).send({ status: 'error', message: 'Service temporarily unavailable (injected fault)', error_code: 'NetworkException', error_type: 'NetworkException' });
      return reply;
    }
    return undefined;
  });

  app.addHook('preHandler', async (request, reply) => {
    const meta = routeMeta(request);
    if (meta.control) {
      if (!meta.open && request.headers['x-sim-admin'] !== ctx.creds.adminKey) throw userError(403, 'x-sim-admin header missing or wrong: the control API needs the admin key');
      return;
    }
    if (ctx.faults.latencyMs > 0) await realDelay(ctx.faults.latencyMs);
    if (meta.auth !== false) {
      const header = request.headers['authorization'];
      const token = Array.isArray(header) ? header[0] : header;
      const check = ctx.tokens.check(token);
      if (!check.ok) throw tokenError(check.message);
      request.simToken = token;
    }
    if (meta.category && ctx.limiter) {
      const d = ctx.limiter.take(SIM_USER_ID, meta.category);
      setRateHeaders(reply, d);
      if (!d.allowed) {
        reply.header('Retry-After', String(Math.max(1, Math.ceil(d.retryAfterMs / 1000))));
        reply.code(429).send(RATE_LIMIT_BODY);
        return reply;
      }
    }
    if (meta.write && !ctx.whitelist.allows(request.socket.remoteAddress)) {
      const { primary, secondary } = ctx.whitelist.addresses;
      throw userError(
        403,
        `Order placement, modification and cancellation need a whitelisted static IP: ${request.socket.remoteAddress ?? 'unknown'} is not registered (primary ${primary}, secondary ${secondary})`,
      );
    }
    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Date', new Date(ctx.clock.now()).toUTCString());
    reply.header('X-Sim-Clock-Offset-Ms', String(ctx.clock.now() - ctx.wallClock.now()));
    const meta = routeMeta(request);
    if (request.simToken !== undefined && !meta.write && reply.statusCode < 300) {
      const check = ctx.tokens.check(request.simToken);
      if (!check.ok) {
        reply.code(403).header('content-type', 'application/json; charset=utf-8');
        return JSON.stringify(tokenError(check.message).toWire());
      }
    }
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const entry = { method: request.method, path: request.url, status: reply.statusCode, ip: request.socket.remoteAddress ?? '', ts: ctx.clock.now() };
    ctx.requests.add(entry);
    if (ctx.log.isLevelEnabled('debug')) ctx.log.debug(entry, 'request');
  });

  app.setErrorHandler(async (error: unknown, request, reply) => {
    if (error instanceof SimApiError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return reply.code(error.status).send(error.toWire());
    }
    const e = error as { statusCode?: number; code?: string; message?: string };
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      // Fastify's own rejections (bad JSON, wrong content type, body too large).
      const msg = e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'request body: empty JSON body' : `request body: ${e.message ?? 'invalid'}`;
      return reply.code(e.statusCode).send({ status: 'error', message: msg, error_code: 'InputException', error_type: 'InputException' });
    }
    ctx.log.error({ err: error, method: request.method, url: request.url }, 'simulator route failed');
    return reply.code(500).send({ status: 'error', message: `internal simulator error: ${describeError(error)}`, error_code: 'NetworkException', error_type: 'NetworkException' });
  });

  app.setNotFoundHandler(async (request, reply) => {
    reply.header('Date', new Date(ctx.clock.now()).toUTCString());
    return reply.code(404).send({ status: 'error', message: `no such endpoint: ${request.method} ${request.url.split('?')[0]}`, error_code: 'NotFoundException', error_type: 'NotFoundException' });
  });

  for (const m of modules) m(app, ctx);

  return app;
}

export function setRateHeaders(reply: FastifyReply, d: RateDecision): void {
  reply.header('X-RateLimit-Limit', String(d.limit));
  reply.header('X-RateLimit-Remaining', String(d.remaining));
  // Epoch seconds, as most gateways send it.
  reply.header('X-RateLimit-Reset', String(Math.ceil(d.resetAt / 1000)));
}

/** Network latency is wall time, not market time: a VirtualClock must not freeze it. */
function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
