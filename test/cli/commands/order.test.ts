/**
 * `tarang order ...` as an operator runs it: the real bin in a child process against the simulator
 * over loopback. Placing by symbol with --yes, a risk denial (exit 3 with the check's code), no
 * terminal and no --yes (exit 2, nothing sent), an unknown symbol, a modification, the
 * 25-modification cap counted across runs, a cancel, the book and trades as tables with symbols,
 * rupees and IST times, and a lost answer settled by the order book without a second order.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBroker, type Broker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import type { OrderRecord } from '../../../src/adapters/broker/schemas/orders.js';
import { startSimulator, type RunningSimulator } from '../../../src/adapters/simulator/index.js';
import { isManualTag } from '../../../src/adapters/execution/tags.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDateTime } from '../../../src/core/time.js';
import { tarang } from '../../support/tarang-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-order-'));
const state = join(dir, 'state');
let sim: RunningSimulator;
let broker: Broker;
let env: Record<string, string>;

/** A buy limit 2% under the last price, on the tick: it rests in the book. */
async function restingBuyPrice(code: string): Promise<string> {
  const ltp = (await broker.client.quotesLtp([code]))[code]!.ltp;
  return (Math.floor((ltp * 0.98) / 5) * 5 / 100).toFixed(2);
}

async function book(): Promise<OrderRecord[]> {
  return broker.client.orderBook();
}

async function faults(patch: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sim.baseUrl}/sim/faults`, { method: 'POST', headers: { 'x-sim-admin': sim.credentials.admin_key, 'content-type': 'application/json' }, body: JSON.stringify(patch) });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  sim = await startSimulator({ start: istDateTime('2026-11-20', '11:00'), seed: 7, logger: silentLogger(), venue: { nseEquities: 20, bseEquities: 5 } });
  broker = createBroker(parseBrokerConfig({ baseUrl: sim.baseUrl, accessToken: sim.credentials.access_token }), { clock: sim.clock, logger: silentLogger(), autoRenew: false });
  env = { TARANG_BASE_URL: sim.baseUrl, TARANG_WS_URL: sim.wsUrl, TARANG_ACCESS_TOKEN: sim.credentials.access_token, TARANG_CACHE_DIR: join(dir, 'cache'), TARANG_HOME: state, HOME: dir };
}, 60_000);

afterAll(async () => {
  await broker?.close();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tarang order', () => {
  it('places a limit order by symbol with --yes, tagged as placed by hand, and shows it in the book with symbol, rupees and IST time', async () => {
    const price = await restingBuyPrice('NSE_1333');
    const r = await tarang(['order', 'place', 'BUY', '10', 'HDFCBANK', '--price', price, '--yes'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m = /^placed order (\S+): BUY 10 HDFCBANK \(NSE_1333\) at ₹[\d,]+\.\d\d, INTRADAY; status \S+; tag (man[0-9a-z]+-1)\n$/.exec(r.stdout);
    expect(m).not.toBeNull();
    const placed = (await book()).filter((o) => o.remarks === m![2]);
    expect(placed).toHaveLength(1);
    expect(placed[0]!.orderId).toBe(m![1]);
    expect(isManualTag(placed[0]!.remarks)).toBe(true);

    const b = await tarang(['order', 'book', '--open'], env);
    expect(b.code).toBe(0);
    const row = b.stdout.split('\n').find((l) => l.includes(m![1]!))!;
    expect(row).toMatch(/^\d\d:\d\d:\d\d +\S+ +HDFCBANK +NSE_1333 +BUY +LIMIT +INTRADAY +10 +0 +₹[\d,]+\.\d\d/);
    expect(row).toMatch(/by hand/);
  }, 60_000);

  it('a risk denial names its check and exits 3; nothing reaches the broker', async () => {
    const before = (await book()).length;
    const r = await tarang(['order', 'place', 'BUY', '100000', 'NSE:RELIANCE', '--market', '--yes'], env);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tarang: order denied by the risk check INSUFFICIENT_FUNDS: needs margin ₹[\d,.]+, available ₹[\d,.]+; nothing was sent \[ORDER_DENIED\]\n$/);
    expect((await book()).length).toBe(before);
  }, 60_000);

  it('without a terminal and without --yes nothing is sent and it exits 2; --json prints the error as JSON', async () => {
    const before = (await book()).length;
    const price = await restingBuyPrice('NSE_1594');
    const r = await tarang(['order', 'place', 'BUY', '1', 'INFY', '--price', price], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tarang: order not placed: it needs a confirmation and stdin is not a terminal to ask on; nothing was sent \(add --yes to send it without asking\) \[NOT_CONFIRMED\]\n$/);
    const j = await tarang(['order', 'place', 'BUY', '1', 'INFY', '--price', price, '--json'], env);
    expect(j.code).toBe(2);
    expect((JSON.parse(j.stderr) as { error: { code: string } }).error.code).toBe('NOT_CONFIRMED');
    expect((await book()).length).toBe(before);
  }, 60_000);

  it('an unknown symbol is refused with the names the instrument master does have', async () => {
    const r = await tarang(['order', 'place', 'BUY', '1', 'HDFCBNK', '--market', '--yes'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^tarang: instrument "HDFCBNK": no instrument of that symbol in today's instrument master; did you mean NSE:HDFCBANK\b.*\[BROKER_INPUT\]\n$/);
    const q = await tarang(['quote', 'NSE:NOSUCHCO'], env);
    expect(q.code).toBe(1);
    expect(q.stderr).toMatch(/^tarang: instrument "NSE:NOSUCHCO": no such instrument in today's equity master/);
  }, 60_000);

  it('modify changes the price and counts the modification; at 25 counted modifications the next is denied (exit 3)', async () => {
    const price = await restingBuyPrice('NSE_1594');
    const p = await tarang(['order', 'place', 'BUY', '2', 'INFY', '--price', price, '--yes', '--json'], env);
    expect(p.code).toBe(0);
    const { order_id: id, tag } = JSON.parse(p.stdout) as { order_id: string; tag: string };
    const lower = (Number(price) - 0.5).toFixed(2);
    const m = await tarang(['order', 'modify', tag, '--price', lower, '--yes'], env);
    expect(m.stderr).toBe('');
    expect(m.code).toBe(0);
    expect(m.stdout).toBe(`modified order ${id} (INFY): status MODIFIED; 1 of at most 25 modifications used\n`);
    expect((await book()).find((o) => o.orderId === id)!.price).toBe(Math.round(Number(lower) * 100));

    // Modifications made by hand are counted in the state folder: the cap holds across runs
    // even where the broker's book reports no count.
    mkdirSync(join(state, 'manual-orders'), { recursive: true });
    writeFileSync(join(state, 'manual-orders', 'modifications.json'), JSON.stringify({ [id]: { n: 25, day: '2026-11-20' } }));
    const capped = await tarang(['order', 'modify', id, '--price', price, '--yes'], env);
    expect(capped.code).toBe(3);
    expect(capped.stderr).toContain(`risk check MODIFICATION_CAP: order ${id} has had 25 modifications; the cap is 25`);
    expect((await book()).find((o) => o.orderId === id)!.price).toBe(Math.round(Number(lower) * 100));

    const c = await tarang(['order', 'cancel', id, '--yes'], env);
    expect(c.code).toBe(0);
    expect(c.stdout).toBe(`cancelled order ${id} (INFY): status CANCELLED\n`);
    const again = await tarang(['order', 'cancel', id, '--yes'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/order \S+ is CANCELLED; there is nothing to cancel/);
  }, 90_000);

  it('a market order fills; trades and positions show symbol, scrip code and rupees', async () => {
    const r = await tarang(['order', 'place', 'BUY', '3', 'RELIANCE', '--market', '--yes', '--json'], env);
    expect(r.code).toBe(0);
    const { order_id: id } = JSON.parse(r.stdout) as { order_id: string };
    const t = await tarang(['order', 'trades', '--order', id], env);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d +\\S+ +${id} +RELIANCE +NSE_2885 +BUY +3 +₹[\\d,]+\\.\\d\\d +₹[\\d,]+\\.\\d\\d +INTRADAY +man`, 'm'));
    const pos = await tarang(['account', 'positions'], env);
    expect(pos.code).toBe(0);
    expect(pos.stdout).toMatch(/^RELIANCE +NSE_2885 +INTRADAY +3 +₹[\d,]+\.\d\d/m);
    const q = await tarang(['quote', 'RELIANCE', 'NSE_1333', '--ltp'], env);
    expect(q.stdout).toMatch(/^RELIANCE +NSE_2885 +₹[\d,]+\.\d\d$/m);
    expect(q.stdout).toMatch(/^HDFCBANK +NSE_1333 +₹[\d,]+\.\d\d$/m);
  }, 60_000);

  it('a lost answer is settled by the order book: one order with the tag, never a second', async () => {
    const price = await restingBuyPrice('NSE_1333');
    await faults({ lost_ack_rate: 1, lost_ack_mode: '5xx' });
    let r;
    try {
      r = await tarang(['order', 'place', 'BUY', '1', 'HDFCBANK', '--price', price, '--yes', '--json'], env);
    } finally {
      await faults({ lost_ack_rate: 0 });
    }
    expect(r.code).toBe(0);
    const { tag, order_id: id } = JSON.parse(r.stdout) as { tag: string; order_id: string };
    const tagged = (await book()).filter((o) => o.remarks === tag);
    expect(tagged.map((o) => o.orderId)).toEqual([id]);
  }, 60_000);
});
