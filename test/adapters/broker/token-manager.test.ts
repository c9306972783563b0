/**
 * One broker session per account across processes: each "process" here is its own Broker (own
 * token manager, limiters and store handle) meeting the others only through the shared store, a
 * file in a temp state folder or Redis, against the simulator over loopback.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBroker, type Broker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { TokenGenerationBlocked } from '../../../src/adapters/broker/errors.js';
import { RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import { nextPreOpen } from '../../../src/adapters/broker/token-manager.js';
import { FileTokenStore } from '../../../src/adapters/broker/token-store-file.js';
import { accountKey, type TokenStore } from '../../../src/adapters/broker/token-store.js';
import { RedisTokenStore } from '../../../src/adapters/redis/token-store.js';
import { nseCalendar } from '../../../src/core/calendar.js';
import { WallClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDateTime } from '../../../src/core/time.js';
import { startHarness, type Harness } from '../simulator/server/sim-harness.js';
import { redisAvailable, TEST_REDIS_URL } from '../../support/redis.js';

let h: Harness;
let dir: string;
const wall = new WallClock();
const opened: Broker[] = [];

beforeAll(async () => {
  h = await startHarness({ venue: { nseEquities: 20, bseEquities: 5, tickIntervals: { cash: 600_000, futures: 600_000, options: 3_600_000 }, pumpMs: 60_000 } });
});
afterAll(async () => {
  await h?.close();
});

beforeEach(async () => {
  for (const b of opened.splice(0)) await b.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = await mkdtemp(join(tmpdir(), 'tarang-session-'));
  // Past the previous test's throttle and lockout windows: every test starts from a quiet account.
  await h.admin('POST', '/sim/clock', { advance_ms: 61 * 60_000 });
});

async function generationsLogged(): Promise<number> {
  const r = await h.admin<{ data: Array<{ path: string }> }>('GET', '/sim/requests?limit=1000');
  return r.body.data.filter((e) => e.path === '/generate/token').length;
}

function key(): string {
  return accountKey(h.sim.baseUrl, h.sim.credentials.api_key);
}

/** A "process": its own broker and its own handle on the account's shared store. */
function processWith(store: () => TokenStore, totpSecret = h.sim.credentials.totp_secret): Broker {
  const c = h.sim.credentials;
  const config = parseBrokerConfig({ baseUrl: h.sim.baseUrl, apiKey: c.api_key, mpin: c.mpin, totpSecret });
  const b = createBroker(config, { clock: h.clock, logger: silentLogger(), limiters: new RateLimiters(h.clock), autoRenew: false, tokenStore: store(), marketOpen: () => true });
  opened.push(b);
  return b;
}

const fileStore = () => new FileTokenStore({ dir, key: key(), wallClock: wall });

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('shared broker session (file store)', () => {
  it('generates once for many processes: later ones reuse the stored token', async () => {
    const before = await generationsLogged();
    const first = processWith(fileStore);
    await first.client.profile();
    for (let i = 0; i < 5; i++) {
      const other = processWith(fileStore);
      await other.client.funds();
      expect(other.tokens.generations).toBe(0);
      expect(other.tokens.adoptions).toBe(1);
    }
    expect(await generationsLogged()).toBe(before + 1);
    // The first process's token is still the live one: nothing replaced it.
    await first.client.profile();
    expect(first.tokens.generations).toBe(1);
  });

  it('sends one generation when five processes start at once (the lock), and all of them work', async () => {
    const before = await generationsLogged();
    const all = Array.from({ length: 5 }, () => processWith(fileStore));
    await Promise.all(all.map((b) => b.client.profile()));
    expect(await generationsLogged()).toBe(before + 1);
    expect(all.reduce((n, b) => n + b.tokens.generations, 0)).toBe(1);
  });

  it('re-reads the store when its token was replaced, and takes the new one instead of generating', async () => {
    const daemon = processWith(fileStore);
    await daemon.client.profile();
    await h.admin('POST', '/sim/clock', { advance_ms: 61_000 });
    // `tarang token` forces a new token: the daemon's is replaced at the broker.
    const cli = processWith(fileStore);
    await cli.tokens.generate();
    const before = await generationsLogged();
    await daemon.client.profile();
    expect(daemon.tokens.adoptions).toBe(1);
    expect(daemon.tokens.generations).toBe(1);
    expect(await generationsLogged()).toBe(before);
  });

  it('with a wrong secret, five processes one after another send one code in all, and each says why', async () => {
    const before = await generationsLogged();
    for (let i = 0; i < 5; i++) {
      const b = processWith(fileStore, 'JBSWY3DPEHPK3PXP');
      expect(b.tokens.blockedReason).toBeUndefined();
      const e = await failure(b.client.profile());
      expect(e).toBeInstanceOf(TokenGenerationBlocked);
      expect((e as TokenGenerationBlocked).context['reason']).toBe('wrong_totp');
      expect((e as TokenGenerationBlocked).message).toMatch(/TARANG_TOTP_SECRET/);
      if (i > 0) expect((e as TokenGenerationBlocked).message).toMatch(/no code was sent/);
      // What the daemon's lockout-risk alert (TOTP_LOCKOUT) reads, for its own refusal and for a shared one.
      expect(b.tokens.blockedReason).toEqual({ reason: 'wrong_totp', message: (e as TokenGenerationBlocked).message });
    }
    expect(await generationsLogged()).toBe(before + 1);
    // The right secret is other credentials: it gets its try and works.
    const fixed = processWith(fileStore);
    await fixed.client.profile();
    expect(await generationsLogged()).toBe(before + 2);
  });

  it('stops sending codes for the account after three wrong codes with different secrets, short of the lockout of five', async () => {
    const before = await generationsLogged();
    const secrets = ['JBSWY3DPEHPK3PXP', 'KRSXG5CTMVRXEZLU', 'MFRGGZDFMZTWQ2LK', 'NBSWY3DPO5XXE3DE'];
    for (const s of secrets) await failure(processWith(fileStore, s).client.profile());
    expect(await generationsLogged()).toBe(before + 3);
    const e = await failure(processWith(fileStore).client.profile());
    expect((e as TokenGenerationBlocked).message).toMatch(/3 codes were refused/);
    expect(await generationsLogged()).toBe(before + 3);
  });

  it('keeps the session in a 0600 file named by a hash (no credential in a name), in a 0700 folder', async () => {
    await processWith(fileStore).client.profile();
    const files = await readdir(dir);
    expect(files).toEqual([`${key()}.json`]);
    expect((await stat(join(dir, files[0]!))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const text = await readFile(join(dir, files[0]!), 'utf8');
    for (const secret of [h.sim.credentials.api_key, h.sim.credentials.mpin, h.sim.credentials.totp_secret]) expect(text).not.toContain(secret);
  });

  it('takes over a lock left by a process that died', async () => {
    await writeFile(join(dir, `${key()}.lock`), JSON.stringify({ id: 'dead', pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), at: wall.now(), ttlMs: 180_000 }));
    const b = processWith(fileStore);
    await b.client.profile();
    expect(b.tokens.generations).toBe(1);
    expect(await readdir(dir)).not.toContain(`${key()}.lock`);
  });
});

describe('shared broker session (Redis)', async () => {
  const up = await redisAvailable();
  const stores: RedisTokenStore[] = [];
  const redisStore = () => {
    const s = new RedisTokenStore({ url: TEST_REDIS_URL, key: key() });
    stores.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it.skipIf(!up)('generates once for several processes and shares a refused code', async () => {
    const cleanup = redisStore();
    await cleanup.write({ rejections: [] });
    const before = await generationsLogged();
    await Promise.all([processWith(redisStore), processWith(redisStore), processWith(redisStore)].map((b) => b.client.profile()));
    expect(await generationsLogged()).toBe(before + 1);

    await h.admin('POST', '/sim/clock', { advance_ms: 61_000 });
    await cleanup.write({ rejections: [] });
    for (let i = 0; i < 3; i++) expect(await failure(processWith(redisStore, 'JBSWY3DPEHPK3PXP').client.profile())).toBeInstanceOf(TokenGenerationBlocked);
    expect(await generationsLogged()).toBe(before + 2);
    await cleanup.write({ rejections: [] });
  });
});

describe('daily renewal time', () => {
  it('is before the next session opens, not 24 hours after the token was made', () => {
    const cal = nseCalendar();
    // Made Friday 2026-11-20 at 10:00: renewed Monday 08:45, 30 minutes before the open.
    expect(nextPreOpen(cal, istDateTime('2026-11-20', '10:00'), 30 * 60_000)).toBe(istDateTime('2026-11-23', '08:45'));
    // Made in the pre-open window: the next trading day's (Tuesday 24th is a holiday: Wednesday).
    expect(nextPreOpen(cal, istDateTime('2026-11-23', '08:50'), 30 * 60_000)).toBe(istDateTime('2026-11-25', '08:45'));
    expect(nextPreOpen(cal, istDateTime('2026-11-23', '08:00'), 30 * 60_000)).toBe(istDateTime('2026-11-23', '08:45'));
  });
});
