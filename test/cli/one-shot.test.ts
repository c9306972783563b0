/**
 * One-shot commands run to their end in a real process against the simulator: waits on the rate
 * limiter (six months of 1-minute candles is 27 paged calls at 5 a second) and downloads with an
 * empty cache keep the process alive until the output is printed, and exit 0. Failures print once,
 * readable, or as JSON with --json.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nseCalendar } from '../../src/core/calendar.js';
import { silentLogger } from '../../src/core/log.js';
import { istDateTime } from '../../src/core/time.js';
import { startSimulator, type RunningSimulator } from '../../src/adapters/simulator/index.js';
import { createBroker } from '../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../src/adapters/broker/config.js';
import { tarang } from '../support/tarang-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-one-shot-'));
let sim: RunningSimulator;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ start: istDateTime('2026-11-20', '12:00'), seed: 7, logger: silentLogger(), venue: { nseEquities: 30, bseEquities: 5 } });
  env = { TARANG_BASE_URL: sim.baseUrl, TARANG_WS_URL: sim.wsUrl, TARANG_ACCESS_TOKEN: sim.credentials.access_token, TARANG_CACHE_DIR: join(dir, 'cache'), HOME: dir };
}, 60_000);

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('one-shot commands against the simulator', () => {
  it('tarang candles over six months of 1-minute candles waits out the rate limiter and prints them all', async () => {
    const r = await tarang(['candles', 'NSE_2885', '--interval', '1minute', '--from', '2026-05-01', '--to', '2026-10-31'], env);
    expect(r.code).toBe(0);
    // A 429 the client's budget did not foresee is waited out and said so, readably.
    expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('tarang: warning: '))).toEqual([]);
    const summary = /(\d+) candles \((\d+) calls, 0 from the catalog\)\n$/.exec(r.stdout);
    expect(summary).not.toBeNull();
    // ~126 trading days of 375 minutes, fetched in 27 windows: more than the 5-a-second budget.
    expect(Number(summary![2])).toBe(27);
    expect(Number(summary![1])).toBeGreaterThan(120 * 375);
    expect(r.stdout).toMatch(/^2026-05-04 09:15 /m);
    expect(r.stdout).toMatch(/^2026-10-30 15:29 /m);
    // The finished windows went into the default catalog (~/.tarang/catalog), one Parquet file a month.
    const listed = await tarang(['data', 'ls', '--json'], env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ instrument: 'NSE_2885', interval: '1minute', candles: Number(summary![1]), months: 6 }]);
    // A second run reads the catalog instead of calling the broker.
    const again = await tarang(['candles', 'NSE_2885', '--interval', '1minute', '--from', '2026-05-01', '--to', '2026-10-31'], env);
    expect(again.stdout).toMatch(new RegExp(`${summary![1]} candles \\(0 calls, 27 from the catalog\\)\\n$`));
  }, 120_000);

  it('tarang backtest --expired-expiry with an empty cache downloads the chain and prints the result', async () => {
    const broker = createBroker(parseBrokerConfig({ baseUrl: sim.baseUrl, accessToken: sim.credentials.access_token }), { clock: sim.clock, logger: silentLogger(), autoRenew: false });
    const expiry = (await broker.client.expiredExpiries('NIFTY', '2026-10-20', '2026-11-19').finally(() => broker.close()))[0]!;
    const day = nseCalendar().previousTradingDay(expiry);
    const json = join(dir, 'straddle.json');
    const r = await tarang(
      ['backtest', '--strategy', 'short-straddle', '--expired-expiry', `NIFTY:${expiry}`, '--from', day, '--to', day, '--strikes', '2', '--param', 'exitTime=15:15', '--cash', '5000000', '--charges', 'options', '--json', json],
      { ...env, TARANG_CACHE_DIR: join(dir, 'empty-cache'), TARANG_HOME: join(dir, 'empty-home') },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/final equity ₹/);
    expect((JSON.parse(readFileSync(json, 'utf8')) as { fills: unknown[] }).fills.length).toBeGreaterThan(0);
  }, 120_000);

  it('a refused login prints one readable line on stderr, not a log record and the error both, and exits 77 (a supervisor must not retry it); --json prints it as JSON', async () => {
    const wrong = { TARANG_BASE_URL: sim.baseUrl, TARANG_API_KEY: 'not-the-key', TARANG_MPIN: '000000', TARANG_TOTP_SECRET: sim.credentials.totp_secret, HOME: dir };
    const plain = await tarang(['account', 'funds'], wrong);
    expect(plain.code).toBe(77);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).not.toContain('"level"');
    const lines = plain.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^tarang: .*api key.* \[BROKER_[A-Z_]+\]$/);

    const json = await tarang(['account', 'funds', '--json'], wrong);
    expect(json.code).toBe(77);
    const err = json.stderr.trimEnd().split('\n');
    expect(err).toHaveLength(1);
    const doc = JSON.parse(err[0]!) as { error: { code: string; message: string } };
    expect(doc.error.code).toMatch(/^BROKER_/);
    expect(doc.error.message).toMatch(/api key/);
    expect(json.stderr).not.toContain('not-the-key');
  }, 60_000);
});
