/**
 * `tarang backtest --strategy short-straddle --expired-expiry NIFTY:<date>` through the CLI against
 * a simulator started here (connection from TARANG_BASE_URL / TARANG_ACCESS_TOKEN, as a user would
 * give it): the expiry is checked, its contracts near the index resolved, their candles and the
 * index's downloaded, the strategy wrapped with withOptionData, and it trades.
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
import { backtestCliStreams } from '../support/backtest-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-bt-expiry-'));
let sim: RunningSimulator;
let expiry: string;
const saved = { base: process.env['TARANG_BASE_URL'], token: process.env['TARANG_ACCESS_TOKEN'], cache: process.env['TARANG_CACHE_DIR'] };

const cli = (args: string[]): Promise<{ out: string; err: string }> => backtestCliStreams(['--no-cache', ...args]);

beforeAll(async () => {
  sim = await startSimulator({ start: istDateTime('2026-11-20', '12:00'), seed: 7, logger: silentLogger(), venue: { nseEquities: 30, bseEquities: 5 } });
  process.env['TARANG_BASE_URL'] = sim.baseUrl;
  process.env['TARANG_ACCESS_TOKEN'] = sim.credentials.access_token;
  process.env['TARANG_CACHE_DIR'] = dir;
  const broker = createBroker(parseBrokerConfig({ baseUrl: sim.baseUrl, accessToken: sim.credentials.access_token }), { clock: sim.clock, logger: silentLogger(), autoRenew: false });
  try {
    expiry = (await broker.client.expiredExpiries('NIFTY', '2026-10-20', '2026-11-19'))[0]!;
  } finally {
    await broker.close();
  }
}, 60_000);

afterAll(async () => {
  for (const [k, v] of [['TARANG_BASE_URL', saved.base], ['TARANG_ACCESS_TOKEN', saved.token], ['TARANG_CACHE_DIR', saved.cache]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tarang backtest --expired-expiry', () => {
  it('backtests short-straddle on an expired weekly: sells the ATM pair after the entry time and buys it back at the exit time', async () => {
    const day = nseCalendar().previousTradingDay(expiry);
    const json = join(dir, 'straddle.json');
    const { out } = await cli([
      '--strategy', 'short-straddle', '--expired-expiry', `NIFTY:${expiry}`, '--from', day, '--to', day, '--strikes', '2',
      '--param', 'stopLossPercent=900', '--param', 'exitTime=15:15', '--cash', '5000000', '--charges', 'options', '--json', json,
    ]);
    expect(out).toMatch(/fills 4/);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { fills: Array<{ time: string; instrument: string; side: string; qty: number }>; denials: { count: number } };
    const sells = doc.fills.filter((f) => f.side === 'SELL');
    expect(sells).toHaveLength(2);
    expect(new Set(sells.map((f) => f.instrument.slice(-2)))).toEqual(new Set(['CE', 'PE']));
    expect(sells[0]!.instrument.slice(0, -2)).toBe(sells[1]!.instrument.slice(0, -2));
    expect(sells.every((f) => f.time > `${day}T09:20` && f.time < `${day}T15:15`)).toBe(true);
    const buys = doc.fills.filter((f) => f.side === 'BUY');
    expect(buys.map((f) => [f.instrument, f.qty]).sort()).toEqual(sells.map((f) => [f.instrument, f.qty]).sort());
    expect(buys.every((f) => f.time >= `${day}T15:15`)).toBe(true);
    expect(doc.denials.count).toBe(0);
  }, 60_000);

  it('names the flag when the expiry is not an expired one, and refuses a strategy without option chains', async () => {
    // A Monday: NIFTY weeklies expire on Tuesdays.
    await expect(cli(['--strategy', 'short-straddle', '--expired-expiry', 'NIFTY:2026-11-16', '--from', '2026-11-13', '--to', '2026-11-13'])).rejects.toThrow(
      /--expired-expiry NIFTY:2026-11-16: not an expired expiry of NIFTY; near it: /,
    );
    await expect(cli(['--strategy', 'short-straddle', '--expired-expiry', 'NIFTY-2026-11-17', '--from', '2026-11-16', '--to', '2026-11-16'])).rejects.toThrow(/expected UNDERLYING:YYYY-MM-DD/);
    const day = nseCalendar().previousTradingDay(expiry);
    await expect(cli(['--strategy', 'sma-cross', '--expired-expiry', `NIFTY:${expiry}`, '--from', day, '--to', day, '--strikes', '1', '--param', 'qty=1'])).rejects.toThrow(/declares no optionChains/);
  }, 60_000);
});
