/**
 * The control API under `/sim/` (header `x-sim-admin: <admin_key>`, else 403), standing in for
 * the broker's dashboard and for the network: clock, tokens, TOTP, prices, static IPs, faults and
 * the request log. `GET /sim/clock` is open: a client needs the server's time for TOTP (spec 5.6).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseScripCode } from '../../../core/instruments.js';
import { parsePaise } from '../../../core/money.js';
import { makeCredentials, randomTotpSecret } from '../auth/credentials.js';
import { StaticIpError } from '../auth/static-ip.js';
import { inputError } from '../server/api-error.js';
import { settlementWire } from '../server/record-wire.js';
import type { SimContext } from '../server/context.js';
import type { RouteMeta } from '../server/route-meta.js';
import { parseInput } from '../server/validate.js';
import { applyFaultPatch, faultPatchSchema, faultStateWire, noFaults } from './faults.js';
import { PacedClock } from './paced-clock.js';

const control: RouteMeta = { control: true, auth: false };
const open: RouteMeta = { control: true, open: true, auth: false };

const clockBody = z.union([
  z.object({ advance_ms: z.number().int().min(0) }).strict(),
  z.object({ set: z.union([z.number().int(), z.string().min(1)]) }).strict(),
], { error: 'expected {"advance_ms": <ms>} or {"set": <epoch ms or ISO time>}' });

const tokenRevokeBody = z.object({ token: z.string().min(1).optional() }).strict();
const priceBody = z
  .object({
    security_id: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).optional(),
    scrip_code: z.string().optional(),
    exchange: z.enum(['NSE', 'BSE']).optional(),
    price: z.union([z.number().positive(), z.string().min(1)]),
  })
  .strict()
  .refine((b) => b.security_id !== undefined || b.scrip_code !== undefined, { message: 'security_id: is required (or scrip_code)', path: ['security_id'] });
const staticIpBody = z.object({ primary: z.string().optional(), secondary: z.string().optional() }).strict();
const requestsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100_000).optional() });

export function controlRoutes(app: FastifyInstance, ctx: SimContext): void {
  // `speed`: market ms per wall ms of a paced clock (a client on its own clock follows it); absent when the clock is driven by hand.
  app.get('/sim/clock', { config: open }, async () => ({ now_ms: ctx.clock.now(), ...(ctx.clock instanceof PacedClock ? { speed: ctx.clock.speed } : {}) }));

  app.post('/sim/clock', { config: control }, async (request) => {
    const body = parseInput(clockBody, request.body, 'request body');
    try {
      if ('advance_ms' in body) await ctx.clockControl.advance(body.advance_ms);
      else {
        const ts = typeof body.set === 'number' ? body.set : Date.parse(body.set);
        if (!Number.isFinite(ts)) throw inputError(`set: ${JSON.stringify(body.set)} is not epoch ms or an ISO 8601 time`);
        await ctx.clockControl.set(ts);
      }
    } catch (e) {
      if (e instanceof RangeError) throw inputError(e.message);
      throw e;
    }
    return { now_ms: ctx.clock.now() };
  });

  app.post('/sim/tokens/revoke', { config: control }, async (request) => {
    const body = parseInput(tokenRevokeBody, request.body, 'request body');
    const killed = ctx.tokens.revoke(body.token);
    ctx.log.info({ count: killed.length }, 'access tokens revoked by the control API');
    return { status: 'success', data: { revoked: killed.length } };
  });

  // Positions settled at expiry at today's open: no trade-book record exists for them (no order).
  app.get('/sim/settlements', { config: control }, async () => ({ status: 'success', data: ctx.venue.settlements().map(settlementWire) }));

  app.post('/sim/tokens/dashboard', { config: control }, async () => {
    const rec = ctx.tokens.issueDashboard();
    return { status: 'success', data: { access_token: rec.token, expires_at: rec.expiresAt } };
  });

  app.post('/sim/totp/disable', { config: control }, async () => {
    const killed = ctx.tokenService.disableTotp();
    ctx.log.info({ revoked: killed.length }, 'TOTP disabled by the control API');
    return { status: 'success', data: { revoked: killed.length } };
  });

  app.post('/sim/totp/enable', { config: control }, async () => {
    const secret = randomTotpSecret();
    makeCredentials({ totpSecret: secret });
    ctx.tokenService.enableTotp(secret);
    return { status: 'success', data: { totp_secret: secret } };
  });

  app.get('/sim/totp/code', { config: control }, async () => {
    if (!ctx.tokenService.totpEnabled) throw inputError('TOTP is disabled');
    return { status: 'success', data: { totp: ctx.tokenService.currentCode() } };
  });

  app.post('/sim/prices', { config: control }, async (request) => {
    const body = parseInput(priceBody, request.body, 'request body');
    let scrip: string;
    if (body.scrip_code !== undefined) {
      if (!parseScripCode(body.scrip_code)) throw inputError(`scrip_code: ${JSON.stringify(body.scrip_code)} is not like NSE_2885`);
      scrip = body.scrip_code.replace(':', '_');
    } else {
      const id = String(body.security_id);
      const found = ctx.venue.resolveSecurity(id, body.exchange);
      if (!found) throw inputError(`security_id: ${id} is not in the instrument master`);
      scrip = found;
    }
    let price: number;
    try {
      price = parsePaise(body.price, 'price');
    } catch (e) {
      throw inputError(e instanceof Error ? e.message : String(e));
    }
    const r = ctx.venue.setPrice(scrip, price);
    if (!r.ok) throw inputError(r.message);
    return { status: 'success', data: { scrip_code: scrip, price: r.price / 100 } };
  });

  app.get('/sim/faults', { config: control }, async () => ({ status: 'success', data: faultStateWire(ctx.faults) }));

  app.post('/sim/faults', { config: control }, async (request) => {
    const patch = parseInput(faultPatchSchema, request.body, 'request body');
    const { wsDrop } = applyFaultPatch(ctx.faults, patch);
    const dropped = wsDrop ? ctx.wsControl.dropAll() : 0;
    ctx.log.info({ faults: faultStateWire(ctx.faults), dropped }, 'faults changed');
    return { status: 'success', data: { ...faultStateWire(ctx.faults), ws_dropped: dropped } };
  });

  app.delete('/sim/faults', { config: control }, async () => {
    Object.assign(ctx.faults, noFaults());
    return { status: 'success', data: faultStateWire(ctx.faults) };
  });

  app.get('/sim/requests', { config: control }, async (request) => {
    const q = parseInput(requestsQuery, request.query, 'query');
    return { status: 'success', data: ctx.requests.recent(q.limit ?? 200) };
  });

  app.get('/sim/static-ip', { config: control }, async () => ({ status: 'success', data: ctx.whitelist.addresses }));

  app.post('/sim/static-ip', { config: control }, async (request) => {
    const body = parseInput(staticIpBody, request.body, 'request body');
    try {
      if (body.primary !== undefined) ctx.whitelist.set('primary', body.primary);
      if (body.secondary !== undefined) ctx.whitelist.set('secondary', body.secondary);
    } catch (e) {
      if (e instanceof StaticIpError) throw inputError(e.message);
      throw e;
    }
    return { status: 'success', data: ctx.whitelist.addresses };
  });
}
