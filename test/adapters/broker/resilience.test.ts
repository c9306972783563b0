/**
 * The adapter on a bad day, against the simulator over real HTTP: every error class, 429s absorbed
 * under a burst, tokens that expire or are revoked, and token generation that stops before it can
 * walk into a lockout. (Lost write answers: test/adapters/execution/lost-answers.test.ts, through
 * the execution layer that owns them.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { createBroker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import {
  DataException,
  InputException,
  NetworkException,
  NotFoundException,
  OrderException,
  RateLimited,
  TokenException,
  TokenGenerationBlocked,
  UserException,
} from '../../../src/adapters/broker/errors.js';
import { ProfileSchema } from '../../../src/adapters/broker/schemas/account.js';
import { WallClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/core/log.js';
import { until } from '../../support/wait.js';
import type { PlaceOrderRequest } from '../../../src/adapters/broker/schemas/orders.js';

const catchErr = async (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

let h: Harness;
const LIFETIME = 300_000;
/** A limit price that rests (below the market, inside the circuit band). */
let restingPrice = 0;
beforeAll(async () => {
  // Tokens live 5 minutes here (renewed 1 minute early), so expiry is reached with short clock jumps.
  // Renewal on a timer is off: a timer renewal during a clock jump would make the next test's
  // generation meet the broker's 60-s throttle (correctly waited out, but a minute of wall time).
  h = await startHarness({ auth: 'totp', sim: { tokenLifetimeMs: LIFETIME }, config: { renewBeforeMs: 60_000 }, broker: { autoRenew: false } });
  const ltp = (await h.broker.client.quotesLtp(['NSE_2885']))['NSE_2885']!.ltp;
  restingPrice = Math.floor((ltp * 0.95) / 10) * 10;
});
afterAll(async () => {
  await h.close();
});

function order(remarks: string, extra: Partial<PlaceOrderRequest> = {}): PlaceOrderRequest {
  return { side: 'BUY', exchange: 'NSE', segment: 'EQUITY', securityId: '2885', qty: 1, orderType: 'LIMIT', limitPrice: restingPrice, validity: 'DAY', product: 'CNC', remarks, ...extra };
}

async function requestsTo(path: string, method = 'POST'): Promise<number> {
  const r = await h.control('GET', '/sim/requests');
  const rows = ((r.json as { data?: unknown }).data ?? r.json) as Array<{ path: string; method: string }>;
  return rows.filter((x) => x.method === method && x.path.split('?')[0] === path).length;
}

describe('error classes', () => {
  it('raises InputException, OrderException, NotFoundException and DataException with endpoint and status', async () => {
    const c = h.broker.client;
    const input = await catchErr(c.placeOrder(order('err:1', { securityId: '99999999' })));
    expect(input).toBeInstanceOf(InputException);
    expect((input as InputException).context.endpoint).toBe('POST /order');
    const refused = await catchErr(c.placeOrder(order('err:2', { qty: 10_000_000, orderType: 'MARKET', limitPrice: undefined })));
    expect(refused).toBeInstanceOf(OrderException);
    expect((refused as OrderException).context.brokerMessage).toBeTruthy();
    const missing = await catchErr(c.order('EQ-1', 'EQUITY'));
    expect(missing).toBeInstanceOf(NotFoundException);
    expect((missing as NotFoundException).context.status).toBe(404);
    const garbled = await catchErr(h.broker.http.call({ method: 'GET', path: '/funds' }, ProfileSchema));
    expect(garbled).toBeInstanceOf(DataException);
    expect((garbled as DataException).message).toMatch(/GET \/funds: .*data\.user_id/);
  });

  it('raises InputException locally for an order that would break reconciliation (no tag, reserved tag)', async () => {
    await expect(h.broker.client.placeOrder(order(''))).rejects.toBeInstanceOf(InputException);
    await expect(h.broker.client.placeOrder(order('TV-TERMINAL'))).rejects.toThrow(/reserved/);
    await expect(h.broker.client.placeOrder(order('x'.repeat(101)))).rejects.toThrow(/at most 100/);
  });

  it('raises UserException for a write from an address that is not whitelisted', async () => {
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, accessToken: h.sim.credentials.access_token, localAddress: '127.0.0.2' });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock) });
    try {
      expect((await b.client.funds()).sodBalance).toBeGreaterThan(0); // reads are allowed from anywhere
      const e = await catchErr(b.client.placeOrder(order('err:ip')));
      expect(e).toBeInstanceOf(UserException);
      expect((e as UserException).retrySafe).toBe(false);
    } finally {
      await b.close();
    }
  });

  it('raises TokenException for a dead token when no TOTP credentials can renew it', async () => {
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, accessToken: 'not-a-live-token' });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock) });
    try {
      const e = await catchErr(b.client.funds());
      expect(e).toBeInstanceOf(TokenException);
      expect((e as TokenException).message).toMatch(/TARANG_ACCESS_TOKEN/);
    } finally {
      await b.close();
    }
  });

  it('raises NetworkException (retry-safe for reads) when the broker cannot be reached', async () => {
    const config = parseBrokerConfig({ baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9', accessToken: 'x'.repeat(10), retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock) });
    try {
      const e = await catchErr(b.client.funds());
      expect(e).toBeInstanceOf(NetworkException);
      expect((e as NetworkException).retrySafe).toBe(true);
      expect(b.http.stats.retries).toBe(1);
    } finally {
      await b.close();
    }
  });
});

describe('429 absorption', () => {
  it('absorbs the broker 429s of a burst beyond the budget: every call succeeds, none crashes', async () => {
    // A client whose own limiter is too generous, as when another process spends the same budget.
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, accessToken: h.sim.credentials.access_token, rateLimits: { quotes: { perWindow: 100 } } });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock, config.rateLimits) });
    try {
      const results = await Promise.all(Array.from({ length: 12 }, () => b.client.quotesLtp(['NSE_2885'])));
      expect(results.every((r) => r['NSE_2885']!.ltp > 0)).toBe(true);
      expect(b.http.stats.rateLimited).toBeGreaterThan(0);
      expect(b.limiters.get('quotes').stats().rateLimited).toBeGreaterThan(0);
    } finally {
      await b.close();
    }
  });

  it('surfaces RateLimited (retry-safe) only when the policy allows no more 429s', async () => {
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, accessToken: h.sim.credentials.access_token, rateLimits: { quotes: { perWindow: 100 } }, retry: { max429: 0 } });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock, config.rateLimits) });
    try {
      const settled = await Promise.allSettled(Array.from({ length: 12 }, () => b.client.quotesLtp(['NSE_2885'])));
      const errs = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
      expect(errs.length).toBeGreaterThan(0);
      expect(errs.every((e) => e instanceof RateLimited && e.retrySafe)).toBe(true);
    } finally {
      await b.close();
    }
  });
});

describe('tokens', () => {
  it('generates a token with TOTP on first use and renews it before its lifetime runs out', async () => {
    const t = h.broker.tokens;
    await h.broker.client.funds();
    expect(t.generations).toBeGreaterThanOrEqual(1);
    const before = t.generations;
    const first = await t.token();
    await h.control('POST', '/sim/clock', { advance_ms: LIFETIME - 50_000 });
    await h.broker.client.funds();
    expect(t.generations).toBe(before + 1);
    expect(await t.token()).not.toBe(first);
  });

  it('renews after the token is revoked, once for many concurrent callers', async () => {
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    const before = h.broker.tokens.generations;
    await h.control('POST', '/sim/tokens/revoke', {});
    const results = await Promise.all(Array.from({ length: 6 }, () => h.broker.client.profile()));
    expect(results.every((p) => p.userId)).toBe(true);
    expect(h.broker.tokens.generations).toBe(before + 1);
  });

  it('renews a configured token refused after it expired', async () => {
    const c = h.sim.credentials;
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    const dash = await h.control('POST', '/sim/tokens/dashboard');
    const token = (dash.json as { data: { access_token: string } }).data.access_token;
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, accessToken: token, apiKey: c.api_key, mpin: c.mpin, totpSecret: c.totp_secret });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock) });
    try {
      await b.client.funds();
      expect(b.tokens.generations).toBe(0);
      await h.control('POST', '/sim/clock', { advance_ms: LIFETIME + 1000 });
      await b.client.funds();
      expect(b.tokens.generations).toBe(1);
      expect(b.http.stats.tokenRenewals).toBe(1);
    } finally {
      await b.close();
    }
  });

  it('stops after one rejected TOTP (wrong secret) and says what to do, never sending a second code', async () => {
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    const c = h.sim.credentials;
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, apiKey: c.api_key, mpin: c.mpin, totpSecret: 'JBSWY3DPEHPK3PXP' });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock) });
    const calls = await requestsTo('/generate/token');
    try {
      const e = await catchErr(b.client.funds());
      expect(e).toBeInstanceOf(TokenGenerationBlocked);
      expect((e as TokenGenerationBlocked).context['reason']).toBe('wrong_totp');
      expect((e as TokenGenerationBlocked).message).toMatch(/TARANG_TOTP_SECRET/);
      // The simulator's market clock is hours off the wall clock; that is not this machine's drift.
      expect((e as TokenGenerationBlocked).message).not.toMatch(/NTP|clock is \d+ s/);
      const again = await catchErr(b.client.funds());
      expect(again).toBe(e);
      expect(await requestsTo('/generate/token')).toBe(calls + 1);
    } finally {
      await b.close();
    }
  });

  it('blames the clock when the wall clock is a minute off the broker Date header, allowing for the simulator market clock shift', async () => {
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    const c = h.sim.credentials;
    const sim = h.sim.clock;
    // Codes come from the wall clock: this machine's runs two minutes ahead. The simulator's own
    // market clock is far from the wall (its Date header); only the wall difference is drift.
    const skewedWall = new WallClock({ start: new WallClock().now() + 120_000 });
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, apiKey: c.api_key, mpin: c.mpin, totpSecret: c.totp_secret });
    const b = createBroker(config, { clock: sim, wallClock: skewedWall, logger: silentLogger(), limiters: new RateLimiters(sim) });
    try {
      expect(Math.abs(sim.now() - new WallClock().now())).toBeGreaterThan(10 * 60_000);
      const e = await catchErr(b.tokens.token());
      expect(e).toBeInstanceOf(TokenGenerationBlocked);
      expect((e as TokenGenerationBlocked).context['reason']).toBe('clock_drift');
      expect((e as TokenGenerationBlocked).message).toMatch(/1[12]\d s ahead of the broker/);
    } finally {
      await b.close();
    }
  });

  it('renews on its own timer before expiry, with no call needed', async () => {
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    const c = h.sim.credentials;
    const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, wsUrl: h.sim.wsUrl, apiKey: c.api_key, mpin: c.mpin, totpSecret: c.totp_secret, renewBeforeMs: 60_000 });
    const b = createBroker(config, { clock: h.sim.clock, limiters: new RateLimiters(h.sim.clock), autoRenew: true });
    try {
      const first = await b.tokens.token();
      expect(b.tokens.generations).toBe(1);
      await h.control('POST', '/sim/clock', { advance_ms: LIFETIME - 50_000 });
      await until(() => b.tokens.generations >= 2, 'the renewal timer to generate a second token');
      expect(b.tokens.generations).toBe(2);
      expect(await b.tokens.token()).not.toBe(first);
    } finally {
      await b.close();
    }
  });

  it('renews the token when the WebSocket handshake is refused, then reconnects and resubscribes', async () => {
    // The previous test's TOTP token replaced the harness's: renew it now (past the throttle), then
    // let the throttle pass again.
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    await h.broker.client.profile();
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    const md = h.broker.marketData();
    md.subscribe(['NSE_2885'], 'ltp');
    const deadline = () => performance.now() + 20_000; // real-time bound on a loaded machine; the clock itself is virtual
    let end = deadline();
    while (!md.stats().shards[0]?.connected && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
    const before = h.broker.tokens.generations;
    await h.control('POST', '/sim/tokens/revoke', {});
    md.forceReconnect('test: token revoked');
    end = deadline();
    while ((md.stats().shards[0]!.connects < 2 || !md.stats().shards[0]!.connected) && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(h.broker.tokens.generations).toBe(before + 1);
    expect(md.stats().shards[0]!.connected).toBe(true);
    const ws = md.stats().shards[0]!;
    expect(ws.connects).toBeGreaterThanOrEqual(2);
    expect(ws.handshakeRefusals).toBeGreaterThanOrEqual(1);
  });

  it('waits out the 60-second throttle instead of failing', async () => {
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    await h.broker.tokens.generate();
    const before = h.broker.tokens.generations;
    const held = h.broker.limiters.stats().token.delayed;
    const p = h.broker.tokens.generate();
    // The client's own limiter holds the second generation for the minute: once it is held (not
    // before, or the clock jump would be over before the wait began), move time along.
    await until(() => h.broker.limiters.stats().token.delayed > held, 'the token limiter to hold the second generation');
    await h.control('POST', '/sim/clock', { advance_ms: 61_000 });
    await p;
    expect(h.broker.tokens.generations).toBe(before + 1);
  });
});
