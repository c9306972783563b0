/**
 * The simulator as `tarang sim` runs it (market clock from 09:15 IST, moved by `POST /sim/clock`)
 * accepts the code the holder's authenticator shows: the wall clock's, whatever the market time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createBroker } from '../../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../../src/adapters/broker/config.js';
import { TokenGenerationBlocked } from '../../../../src/adapters/broker/errors.js';
import { RateLimiters } from '../../../../src/adapters/broker/rate-limiter.js';
import { startSimulator, type RunningSimulator } from '../../../../src/adapters/simulator/index.js';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { WallClock } from '../../../../src/core/clock.js';
import { silentLogger } from '../../../../src/core/log.js';
import { istDate } from '../../../../src/core/time.js';

const HOUR = 3_600_000;
let sim: RunningSimulator;

async function generationsLogged(): Promise<number> {
  const r = await request(`${sim.baseUrl}/sim/requests?limit=1000`, { headers: { 'x-sim-admin': sim.credentials.admin_key } });
  const body = (await r.body.json()) as { data: Array<{ path: string }> };
  return body.data.filter((e) => e.path === '/generate/token').length;
}

async function advance(ms: number): Promise<number> {
  const r = await request(`${sim.baseUrl}/sim/clock`, {
    method: 'POST',
    headers: { 'x-sim-admin': sim.credentials.admin_key, 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: ms }),
  });
  await r.body.dump();
  return r.statusCode;
}

beforeAll(async () => {
  sim = await startSimulator({ logger: silentLogger(), venue: { nseEquities: 20, bseEquities: 5 } });
});
afterAll(async () => sim?.close());

describe('TOTP against the wall clock', () => {
  it('starts its market clock at 09:15 IST and still accepts a wall-clock code after /sim/clock moves it by hours', async () => {
    const calendar = nseCalendar();
    const opening = calendar.currentOrPreviousSession(sim.clock.now());
    expect(sim.clock.now() - opening.open).toBeLessThan(60_000);
    expect(istDate(opening.open)).toBe(istDate(sim.clock.now()));

    expect(await advance(3 * HOUR)).toBe(200);

    const c = sim.credentials;
    const config = parseBrokerConfig({ baseUrl: sim.baseUrl, apiKey: c.api_key, mpin: c.mpin, totpSecret: c.totp_secret });
    // The client runs on the wall clock, as a CLI command does.
    const clock = new WallClock();
    const b = createBroker(config, { clock, logger: silentLogger(), limiters: new RateLimiters(clock), autoRenew: false });
    try {
      const profile = await b.client.profile();
      expect(profile.userId).toBe('SIM0001');
      expect(b.tokens.generations).toBe(1);
      expect(await generationsLogged()).toBe(1);
    } finally {
      await b.close();
    }
  });

  it('says how far its market clock is from the wall clock, so that shift is not taken for drift', async () => {
    const r = await request(`${sim.baseUrl}/user/profile`, { headers: { authorization: sim.credentials.access_token } });
    await r.body.dump();
    const offset = Number(r.headers['x-sim-clock-offset-ms']);
    expect(Number.isFinite(offset)).toBe(true);
    expect(Math.abs(sim.clock.now() - new WallClock().now() - offset)).toBeLessThan(5_000);
  });

  it('blames a wrong secret, not the clock, for a refused code while the market clock is hours off the wall', async () => {
    expect(await advance(61_000)).toBe(200); // past the one-a-minute throttle of the first test's login
    const c = sim.credentials;
    const config = parseBrokerConfig({ baseUrl: sim.baseUrl, apiKey: c.api_key, mpin: c.mpin, totpSecret: 'JBSWY3DPEHPK3PXP' });
    const clock = new WallClock();
    const b = createBroker(config, { clock, logger: silentLogger(), limiters: new RateLimiters(clock), autoRenew: false });
    try {
      const e = await b.client.funds().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(TokenGenerationBlocked);
      expect((e as TokenGenerationBlocked).context['reason']).toBe('wrong_totp');
      expect((e as TokenGenerationBlocked).message).not.toMatch(/NTP/);
    } finally {
      await b.close();
    }
  });
});
