/** Spec 4.1: profile, funds, and `POST /generate/token` (the TOTP path of spec 3.2/3.3). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RateCategory } from '../limits/rate-category.js';
import { TokenRejection } from '../auth/token-service.js';
import { userError, inputError } from './api-error.js';
import { SIM_USER_ID, type SimContext } from './context.js';
import { parseInput } from './validate.js';
import { fundsWire } from './record-wire.js';
import type { RouteMeta } from './route-meta.js';

const tokenBody = z.object({
  mpin: z.string({ error: 'expected a string' }).min(1, 'must not be empty'),
  totp: z.string({ error: 'expected a string' }).regex(/^\d{6}$/, 'expected the current 6-digit TOTP code'),
});

export const SIM_PROFILE = Object.freeze({
  user_id: SIM_USER_ID,
  email: 'sim.trader@example.com',
  first_name: 'Sim',
  last_name: 'Trader',
  demat_id: '1208160000000001',
  is_nse_onboarded: true,
  is_bse_onboarded: true,
  is_nse_fno_onboarded: true,
  is_bse_fno_onboarded: true,
  ucc: 'SIMUCC0001',
  is_ddpi_active: true,
});

export function accountRoutes(app: FastifyInstance, ctx: SimContext): void {
  const nonTrading: RouteMeta = { category: RateCategory.NON_TRADING };

  app.get('/user/profile', { config: nonTrading }, async () => ({ status: 'success', data: SIM_PROFILE }));

  app.get('/funds', { config: nonTrading }, async () => ({ status: 'success', data: fundsWire(ctx.venue.funds()) }));

  app.post('/generate/token', { config: { auth: false } satisfies RouteMeta }, async (request, reply) => {
    const ct = request.headers['content-type'];
    if (ct === undefined || !ct.toLowerCase().startsWith('application/json')) throw inputError('Content-Type: expected application/json');
    const header = request.headers['x-api-key'];
    const apiKey = Array.isArray(header) ? header[0] : header;
    const body = parseInput(tokenBody, request.body, 'request body');
    const out = ctx.tokenService.generate({ apiKey, mpin: body.mpin, totp: body.totp });
    if (out.ok) {
      ctx.log.info({ kind: 'totp' }, 'access token generated');
      return reply.send({ status: 'success', data: { token: out.record.token, expires_at: out.record.expiresAt } });
    }
    const now = ctx.clock.now();
    const retryHeaders: Record<string, string> = out.retryAt !== undefined ? { 'Retry-After': String(Math.max(1, Math.ceil((out.retryAt - now) / 1000))) } : {};
    const extra: Record<string, unknown> = { reason: out.reason };
    if (out.retryAt !== undefined) extra['retry_at'] = out.retryAt;
    if (out.attemptsRemaining !== undefined) extra['attempts_remaining'] = out.attemptsRemaining;
    switch (out.reason) {
      case TokenRejection.API_KEY:
        throw userError(401, out.message, extra);
      case TokenRejection.TOTP_DISABLED:
        throw userError(403, out.message, extra);
      case TokenRejection.THROTTLED:
        // The throttle is spec 8's "token generation 1 per minute": a 429, with the reason.
        throw userError(429, out.message, { ...extra, error: 'Rate limit exceeded', success: false }, retryHeaders);
      case TokenRejection.LOCKED:
      case TokenRejection.LOCKED_NOW:
        ctx.log.warn({ until: out.retryAt }, 'token generation locked after wrong TOTP codes');
        throw userError(423, out.message, extra, retryHeaders);
      case TokenRejection.WRONG_MPIN:
      case TokenRejection.WRONG_TOTP:
        throw userError(401, out.message, extra);
    }
  });
}
