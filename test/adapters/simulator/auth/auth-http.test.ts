import { TOTP, Secret } from 'otpauth';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { WallClock } from '../../../../src/core/clock.js';
import { createLogger } from '../../../../src/core/log.js';
import { startHarness, type Harness } from '../server/sim-harness.js';

const MIN = 60_000;
let h: Harness;
let logged = '';
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logged += chunk.toString();
      done();
    },
  });
  h = await startHarness({ logger: createLogger({ destination: sink, pretty: false }) });
});
afterAll(async () => h?.close());

interface Body {
  status: string;
  message: string;
  error_code?: string;
  error_type?: string;
  reason?: string;
  attempts_remaining?: number;
  retry_at?: number;
  data?: { token: string };
}

/** An authenticator app: the code on the wall clock, whatever the simulator's market clock says. */
const authenticator = new WallClock();
function code(offsetMs = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(h.sim.credentials.totp_secret), timestamp: authenticator.now() + offsetMs });
}

function generate(body: Record<string, unknown>, apiKey = h.sim.credentials.api_key) {
  return h.call<Body>('POST', '/generate/token', { token: null, headers: { 'x-api-key': apiKey }, body });
}

const advance = (ms: number) => h.admin('POST', '/sim/clock', { advance_ms: ms });

// First, while the market is open (later tests move the clock past the close).
describe('static IP (spec 5.7)', () => {
  it('refuses order writes from a non-whitelisted source address and serves reads to it', async () => {
    const token = (await h.admin<{ data: { access_token: string } }>('POST', '/sim/tokens/dashboard')).body.data.access_token;
    const from2 = new Agent({ localAddress: '127.0.0.2' });
    try {
      const body = { txn_type: 'BUY', exchange: 'NSE', segment: 'EQUITY', security_id: '2885', qty: 1, order_type: 'MARKET', validity: 'DAY', product: 'CNC', is_amo: false, algo_id: '99999' };
      const place = await h.call<Body>('POST', '/order', { token, body, dispatcher: from2 });
      expect(place.status).toBe(403);
      expect(place.body.message).toMatch(/whitelisted static IP: 127\.0\.0\.2 is not registered/);
      const smart = await h.call<Body>('POST', '/smart/order/cancel', { token, body: { order_id: 'X', segment: 'EQUITY' }, dispatcher: from2 });
      expect(smart.status).toBe(403);
      const read = await h.call<Body>('GET', '/order-book', { token, dispatcher: from2 });
      expect(read.status).toBe(200);
      const ok = await h.call<Body>('POST', '/order', { token, body });
      expect(ok.status, ok.text).toBe(200);
      // The dashboard can whitelist the address (one change per slot per week).
      const set = await h.admin('POST', '/sim/static-ip', { secondary: '127.0.0.2' });
      expect(set.status).toBe(200);
      expect((await h.call<Body>('POST', '/order', { token, body, dispatcher: from2 })).status).toBe(200);
      const again = await h.admin<Body>('POST', '/sim/static-ip', { secondary: '127.0.0.3' });
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/once per calendar week/);
    } finally {
      await from2.close();
    }
  });
});

describe('token generation and lockout (spec 3.2, 3.3, 5)', () => {
  it('runs the whole lockout machine on the virtual clock', async () => {
    const { mpin } = h.sim.credentials;
    // A success, then the 60-second throttle.
    const ok = await generate({ mpin, totp: code() });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data?.token).toBeTypeOf('string');
    expect(ok.text).not.toContain('access_token');
    const throttled = await generate({ mpin, totp: code() });
    expect(throttled.status).toBe(429);
    expect(throttled.body.reason).toBe('throttled');
    expect(throttled.body.message).toMatch(/throttled.*retry after \d+ s/);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    await advance(MIN);

    // Wrong mpin: told apart from a wrong code and not counted.
    const badMpin = await generate({ mpin: mpin === '000000' ? '111111' : '000000', totp: code() });
    expect(badMpin.status).toBe(401);
    expect(badMpin.body).toMatchObject({ reason: 'wrong_mpin', message: 'Invalid mpin' });

    // Five wrong codes: 4, 3, 2, 1 remaining, then a 15-minute lock.
    const wrong = String((Number(code()) + 500_000) % 1_000_000).padStart(6, '0');
    for (const left of [4, 3, 2, 1]) {
      const r = await generate({ mpin, totp: wrong });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ reason: 'wrong_totp', attempts_remaining: left });
      expect(r.body.message).toMatch(new RegExp(`${left} attempt\\(s\\) remaining`));
    }
    const locking = await generate({ mpin, totp: wrong });
    expect(locking.status).toBe(423);
    expect(locking.body.reason).toBe('locked_now');
    const until = locking.body.retry_at!;
    expect(until - h.clock.now()).toBe(15 * MIN);

    // While locked even a right code is rejected, and asking does not extend the lock.
    await advance(10 * MIN);
    const whileLocked = await generate({ mpin, totp: code() });
    expect(whileLocked.status).toBe(423);
    expect(whileLocked.body).toMatchObject({ reason: 'locked', retry_at: until });
    expect(whileLocked.body.message).toMatch(/locked until .*\+05:30/);
    await advance(5 * MIN);
    const after = await generate({ mpin, totp: code() });
    expect(after.status, after.text).toBe(200);
  });

  it('escalates to a 1-hour lock on the third lock within an hour', async () => {
    const { mpin } = h.sim.credentials;
    await advance(2 * MIN);
    const wrong = () => String((Number(code()) + 500_000) % 1_000_000).padStart(6, '0');
    const lock = async () => {
      let last: Awaited<ReturnType<typeof generate>> | undefined;
      for (let i = 0; i < 5; i++) last = await generate({ mpin, totp: wrong() });
      return last!;
    };
    // The previous test locked once 17 minutes ago (within the hour).
    const second = await lock();
    expect(second.body.retry_at! - h.clock.now()).toBe(15 * MIN);
    await advance(15 * MIN);
    const third = await lock();
    expect(third.status).toBe(423);
    expect(third.body.retry_at! - h.clock.now()).toBe(60 * MIN);
    // The account holder is alerted (a log line on the simulator's side), without any secret.
    expect(logged).toMatch(/ALERT to account holder: token generation locked for 1 hour/);
    expect(logged).not.toContain(h.sim.credentials.access_token);
    expect(logged).not.toContain(h.sim.credentials.totp_secret);
    await advance(59 * MIN);
    expect((await generate({ mpin, totp: code() })).body.reason).toBe('locked');
    await advance(MIN);
    expect((await generate({ mpin, totp: code() })).status).toBe(200);
  });

  it('rejects a missing or unknown api key and a code from a drifted clock', async () => {
    await advance(MIN);
    const noKey = await h.call<Body>('POST', '/generate/token', { token: null, body: { mpin: '1', totp: '123456' } });
    expect(noKey.status).toBe(401);
    expect(noKey.body.message).toMatch(/x-api-key/);
    const badKey = await generate({ mpin: h.sim.credentials.mpin, totp: code() }, 'nope');
    expect(badKey.status).toBe(401);
    const badShape = await generate({ mpin: h.sim.credentials.mpin, totp: '12ab' });
    expect(badShape.status).toBe(400);
    expect(badShape.body.message).toMatch(/^totp:/);
    const drifted = await generate({ mpin: h.sim.credentials.mpin, totp: code(-2 * MIN) });
    expect(drifted.body.reason).toBe('wrong_totp');
  });
});

describe('token lifetimes (spec 3.2)', () => {
  it('a new TOTP token replaces only the previous TOTP token; the dashboard token lives on', async () => {
    await advance(2 * MIN);
    const first = (await generate({ mpin: h.sim.credentials.mpin, totp: code() })).body.data!.token;
    expect((await h.call('GET', '/user/profile', { token: first })).status).toBe(200);
    await advance(MIN);
    const second = (await generate({ mpin: h.sim.credentials.mpin, totp: code() })).body.data!.token;
    const dead = await h.call<Body>('GET', '/user/profile', { token: first });
    expect(dead.status).toBe(403);
    expect(dead.body).toMatchObject({ status: 'error', error_code: 'TokenException', error_type: 'TokenException' });
    expect(dead.body.message).toMatch(/replaced/);
    expect((await h.call('GET', '/user/profile', { token: second })).status).toBe(200);
    expect((await h.call('GET', '/user/profile')).status).toBe(200);
  });

  it('expires a token 24 hours after generation', async () => {
    const fresh = await h.admin<{ data: { access_token: string } }>('POST', '/sim/tokens/dashboard');
    const t = fresh.body.data.access_token;
    await advance(24 * 3_600_000 - 1);
    expect((await h.call('GET', '/funds', { token: t })).status).toBe(200);
    await advance(1);
    const r = await h.call<Body>('GET', '/funds', { token: t });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/expired/);
  });

  it('refuses a call without the Authorization header, and one with a Bearer prefix', async () => {
    const none = await h.call<Body>('GET', '/funds', { token: null });
    expect(none.status).toBe(403);
    expect(none.body.message).toMatch(/Authorization header is missing/);
    const bearer = await h.call<Body>('GET', '/funds', { token: `Bearer ${h.sim.credentials.access_token}` });
    expect(bearer.status).toBe(403);
  });

  it('revoke acts at once, on a call already in flight too', async () => {
    const t = (await h.admin<{ data: { access_token: string } }>('POST', '/sim/tokens/dashboard')).body.data.access_token;
    await h.admin('POST', '/sim/faults', { latency_ms: 300 });
    const inflight = h.call<Body>('GET', '/user/profile', { token: t });
    await new Promise((r) => setTimeout(r, 50));
    await h.admin('POST', '/sim/tokens/revoke', { token: t });
    await h.admin('DELETE', '/sim/faults');
    const r = await inflight;
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/revoked/);
  });

  it('disabling TOTP revokes every token and stops generation until re-enrolment', async () => {
    await advance(2 * MIN);
    const t = (await h.admin<{ data: { access_token: string } }>('POST', '/sim/tokens/dashboard')).body.data.access_token;
    expect((await h.call('GET', '/funds', { token: t })).status).toBe(200);
    const r = await h.admin<{ data: { revoked: number } }>('POST', '/sim/totp/disable');
    expect(r.body.data.revoked).toBeGreaterThan(0);
    expect((await h.call('GET', '/funds', { token: t })).status).toBe(403);
    const g = await generate({ mpin: h.sim.credentials.mpin, totp: code() });
    expect(g.status).toBe(403);
    expect(g.body.reason).toBe('totp_disabled');
    const enrol = await h.admin<{ data: { totp_secret: string } }>('POST', '/sim/totp/enable');
    const newCode = TOTP.generate({ secret: Secret.fromBase32(enrol.body.data.totp_secret), timestamp: authenticator.now() });
    const ok = await generate({ mpin: h.sim.credentials.mpin, totp: newCode });
    expect(ok.status, ok.text).toBe(200);
  });
});

