/**
 * `tarang backtest` of F&O contracts through the CLI against a simulator started here, on the paths
 * that must not fall back to a wrong lot or segment:
 * - an expired stock future by trading symbol (`--expired RELIANCE..FUT`): lot from the wire's
 *   expired-contract search, a stock contract (its freeze limit from the imported qtyfreeze file);
 * - a current stock future by scrip code (`--symbol NFO_..`): lot from the F&O instrument master;
 * - BSE contracts (`--expired SENSEX..`, `--expired-expiry SENSEX:..`) without `--segment`: the BFO
 *   segment is taken from the underlying, and BSE's freeze limit applies.
 * The stock freeze limits are a hand-written file in NSE's format (illustrative numbers).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { addDays, istDateTime } from '../../src/core/time.js';
import { nseCalendar } from '../../src/core/calendar.js';
import { parseInstrumentMaster } from '../../src/core/instrument-master.js';
import { startSimulator, type RunningSimulator } from '../../src/adapters/simulator/index.js';
import { createBroker } from '../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../src/adapters/broker/config.js';
import type { ExpiredContract } from '../../src/adapters/broker/schemas/contracts.js';
import { backtestCliStreams } from '../support/backtest-cli.js';
import { stockFreezeHome, type StockFreezeHome } from '../support/stock-freeze.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-bt-fno-'));
let sim: RunningSimulator;
let home: StockFreezeHome;
let relianceExpired: ExpiredContract;
let relianceCurrent: { id: string; lotSize: number };
let sensexExpired: ExpiredContract;
let sensexExpiry: string;
const saved = { base: process.env['TARANG_BASE_URL'], token: process.env['TARANG_ACCESS_TOKEN'], cache: process.env['TARANG_CACHE_DIR'] };

interface Doc {
  fills: Array<{ instrument: string; qty: number }>;
  denials: { count: number; by_code: Record<string, number>; first: Array<{ code: string; reason: string }> };
}
async function run(name: string, args: string[]): Promise<Doc> {
  const json = join(dir, `${name}.json`);
  await backtestCliStreams(['--no-cache', ...args, '--cash', '100000000', '--json', json]);
  return JSON.parse(readFileSync(json, 'utf8')) as Doc;
}

beforeAll(async () => {
  home = stockFreezeHome();
  // Illustrative: RELIANCE 3000 units (6 lots of 500) from long before the contracts below.
  home.store('2026-01-01');
  sim = await startSimulator({ start: istDateTime('2026-11-20', '12:00'), seed: 7, logger: silentLogger(), venue: { nseEquities: 30, bseEquities: 5 } });
  process.env['TARANG_BASE_URL'] = sim.baseUrl;
  process.env['TARANG_ACCESS_TOKEN'] = sim.credentials.access_token;
  process.env['TARANG_CACHE_DIR'] = dir;
  const broker = createBroker(parseBrokerConfig({ baseUrl: sim.baseUrl, accessToken: sim.credentials.access_token }), { clock: sim.clock, logger: silentLogger(), autoRenew: false });
  try {
    const relExpiry = (await broker.client.expiredExpiries('RELIANCE', '2026-09-01', '2026-11-19'))[0]!;
    relianceExpired = (await broker.client.expiredContracts('RELIANCE', relExpiry, 'FUTSTK'))[0]!;
    sensexExpiry = (await broker.client.expiredExpiries('SENSEX', '2026-10-20', '2026-11-19'))[0]!;
    sensexExpired = (await broker.client.expiredContracts('SENSEX', sensexExpiry, 'OPTIDX')).find((c) => c.optionType === 'CE')!;
    const master = parseInstrumentMaster(await broker.client.instrumentMaster('fno'), 'fno').instruments;
    relianceCurrent = master.filter((i) => i.kind === 'FUTSTK' && i.symbol === 'RELIANCE').sort((a, b) => a.expiry!.localeCompare(b.expiry!))[0]!;
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
  home?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cal = nseCalendar();
/** The ten trading days up to `expiry` (inclusive). */
const window = (expiry: string): string[] => {
  let from = expiry;
  for (let k = 0; k < 9; k++) from = cal.previousTradingDay(from);
  return ['--from', from, '--to', expiry];
};
const smaCross = (qty: number): string[] => ['--strategy', 'sma-cross', '--interval', '15minute', '--param', 'fast=2', '--param', 'slow=5', '--param', `qty=${qty}`, '--param', 'product=MARGIN', '--charges', 'none'];

describe('backtests of stock and BSE F&O contracts take lots and segments from the broker', () => {
  it('an expired stock future (--expired): its lot from the expired-contract search, checked as a stock contract', async () => {
    const sym = relianceExpired.tradingSymbol;
    const lot = relianceExpired.lotSize;
    expect(lot).toBe(500);
    // One unit is not a lot: the lot is the wire's 500, not a default of 1.
    const odd = await run('rel-odd', ['--expired', sym, ...window(relianceExpired.expiry), ...smaCross(1)]);
    expect(odd.fills).toEqual([]);
    expect(odd.denials.first[0]).toMatchObject({ code: 'LOT_SIZE', reason: `qty 1 is not a multiple of the lot size 500 of ${sym}` });
    // Whole lots trade.
    const whole = await run('rel-lot', ['--expired', sym, ...window(relianceExpired.expiry), ...smaCross(lot)]);
    expect(whole.denials.count).toBe(0);
    expect(whole.fills.length).toBeGreaterThan(0);
    expect(whole.fills.every((f) => f.qty === lot)).toBe(true);
    // Seven lots: above the imported stock limit (a FUTSTK lookup, not an index one).
    const big = await run('rel-big', ['--expired', sym, ...window(relianceExpired.expiry), ...smaCross(7 * lot)]);
    expect(big.denials.first[0]).toMatchObject({ code: 'FREEZE_QTY', reason: `Order quantity 3500 of ${sym} exceeds the freeze limit of 3000 for RELIANCE; split it into orders of at most 3000` });
  }, 120_000);

  it('a current stock future by scrip code (--symbol NFO_..): its lot from the F&O instrument master of the day', async () => {
    const today = '2026-11-20';
    const args = ['--symbol', relianceCurrent.id, '--from', addDays(today, -14), '--to', addDays(today, -1), ...smaCross(1)];
    const odd = await run('rel-cur', args);
    expect(odd.denials.first[0]).toMatchObject({ code: 'LOT_SIZE', reason: `qty 1 is not a multiple of the lot size ${relianceCurrent.lotSize} of ${relianceCurrent.id}` });
    await expect(run('rel-missing', ['--symbol', 'NFO_1', '--from', addDays(today, -3), '--to', addDays(today, -1), ...smaCross(1)])).rejects.toThrow(/--symbol: NFO_1: not in today's F&O instrument master/);
  }, 120_000);

  it('an expired SENSEX option (--expired, no --segment): its candles from the BFO segment, BSE\'s freeze limit of 1000', async () => {
    const sym = sensexExpired.tradingSymbol;
    expect(sensexExpired.lotSize).toBe(20);
    const big = await run('sensex-big', ['--expired', sym, ...window(sensexExpired.expiry), ...smaCross(1020)]);
    expect(big.denials.first[0]).toMatchObject({ code: 'FREEZE_QTY', reason: `Order quantity 1020 of ${sym} exceeds the freeze limit of 1000 for SENSEX; split it into orders of at most 1000` });
    const ok = await run('sensex-ok', ['--expired', sym, ...window(sensexExpired.expiry), ...smaCross(1000)]);
    expect(ok.denials.count).toBe(0);
  }, 120_000);

  it('a short straddle on an expired SENSEX expiry (--expired-expiry SENSEX:..): BFO chain, 51 lots a leg denied by BSE\'s freeze limit', async () => {
    const day = cal.previousTradingDay(sensexExpiry);
    const base = ['--strategy', 'short-straddle', '--expired-expiry', `SENSEX:${sensexExpiry}`, '--from', day, '--to', day, '--strikes', '2', '--param', 'exitTime=15:15', '--charges', 'options'];
    const one = await run('straddle-1', [...base, '--param', 'lots=1']);
    expect(one.fills.filter((f) => f.qty === 20).length).toBeGreaterThanOrEqual(2);
    const big = await run('straddle-51', [...base, '--param', 'lots=51']);
    expect(big.denials.by_code['FREEZE_QTY']).toBeGreaterThanOrEqual(1);
    expect(big.denials.first[0]!.reason).toMatch(/^Order quantity 1020 of SENSEX\S+ exceeds the freeze limit of 1000 for SENSEX/);
  }, 120_000);
});
