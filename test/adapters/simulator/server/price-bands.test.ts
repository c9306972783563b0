/**
 * The F&O execution range at the simulator, over HTTP (src/risk/rules/price-bands.ts): a LIMIT
 * order priced outside the range around the last price is refused in the words risk denies it
 * with; one inside is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstrumentMaster } from '../../../../src/core/instrument-master.js';
import type { Instrument } from '../../../../src/core/instruments.js';
import { istDate } from '../../../../src/core/time.js';
import { executionRange, priceBandRefusal } from '../../../../src/risk/rules/price-bands.js';
import { startHarness, T0, type Harness } from './sim-harness.js';

let h: Harness;
let fut: Instrument;
let opt: Instrument;
beforeAll(async () => {
  h = await startHarness();
  const master = parseInstrumentMaster((await h.call<string>('GET', '/market/instruments?source=fno')).text, 'fno').instruments;
  fut = master.find((i) => i.kind === 'FUTIDX' && i.symbol === 'NIFTY')!;
  opt = master.find((i) => i.kind === 'OPTIDX' && i.symbol === 'NIFTY')!;
});
afterAll(async () => h?.close());

function limitBuy(i: Instrument, rupees: number, remarks: string): Record<string, unknown> {
  return { txn_type: 'BUY', exchange: 'NSE', segment: 'FNO', security_id: i.securityId, qty: i.lotSize, order_type: 'LIMIT', limit_price: rupees, validity: 'DAY', product: 'MARGIN', is_amo: false, algo_id: '99999', remarks };
}

describe('F&O execution range in the simulator', () => {
  it('refuses a futures LIMIT order more than 5% from the last price with the rule\'s words, and takes one inside', async () => {
    h.sim.venue.prepare([fut.id]);
    const ltp = h.sim.venue.quote(fut.id)!.ltp;
    const range = executionRange(fut, ltp, istDate(T0))!;
    const outside = range.upper + fut.tickSize;
    const refused = await h.call<{ message: string }>('POST', '/order', { body: limitBuy(fut, outside / 100, 'band-out') });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(priceBandRefusal(fut, outside, ltp, istDate(T0))!);
    const taken = await h.call('POST', '/order', { body: limitBuy(fut, range.lower / 100, 'band-in') });
    expect(taken.status).toBe(200);
  });

  it('gives an option an absolute range while it is cheap', async () => {
    expect(h.sim.venue.setPrice(opt.id, 30_00)).toMatchObject({ ok: true });
    const refused = await h.call<{ message: string }>('POST', '/order', { body: limitBuy(opt, 50.05, 'opt-out') });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('is outside the execution range 10.00 - 50.00 around the reference price 30.00');
    expect((await h.call('POST', '/order', { body: limitBuy(opt, 50, 'opt-in') })).status).toBe(200);
  });
});
