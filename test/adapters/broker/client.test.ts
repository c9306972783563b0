/** Every endpoint of spec section 4 through the typed client, against the simulator over real HTTP. */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acked, startHarness, type Harness } from './harness.js';
import { circuitQuotes, fullQuotes, ltpQuotes } from '../../../src/adapters/broker/helpers/quotes.js';
import { fetchCandleRange } from '../../../src/adapters/broker/helpers/candles.js';
import { contractPages, searchContracts } from '../../../src/adapters/broker/helpers/contracts.js';
import { loadInstrumentMaster } from '../../../src/adapters/broker/helpers/instrument-master.js';
import { DAY_MS, addDays, istDate } from '../../../src/core/time.js';
import { CandleCatalog } from '../../../src/adapters/catalog/index.js';

let h: Harness;
let cacheDir: string;
beforeAll(async () => {
  h = await startHarness();
  cacheDir = await mkdtemp(join(tmpdir(), 'tarang-broker-'));
});
afterAll(async () => {
  await h.close();
  await rm(cacheDir, { recursive: true, force: true });
});

describe('account and portfolio', () => {
  it('reads the profile, funds, holdings, positions and a margin estimate', async () => {
    const c = h.broker.client;
    expect((await c.profile()).userId).toMatch(/\w+/);
    const f = await c.funds();
    expect(f.sodBalance).toBeGreaterThan(0);
    expect(f.available['eq_cnc']).toBeGreaterThan(0);
    expect(Array.isArray(await c.holdings())).toBe(true);
    expect(Array.isArray(await c.positions())).toBe(true);
    const m = await c.margin({ segment: 'EQUITY', exchange: 'NSE', securityId: '2885', side: 'BUY', qty: 2, price: 100_000, product: 'CNC' });
    expect(m.totalMargin).toBeGreaterThan(0);
    expect(m.charges['total_charges']).toBeGreaterThan(0);
  });
});

describe('quotes', () => {
  it('reads full, ltp and depth quotes in paise', async () => {
    const c = h.broker.client;
    const full = await c.quotesFull(['NSE_2885', 'NSE_11536']);
    expect(Number.isInteger(full['NSE_2885']!.ltp)).toBe(true);
    expect(full['NSE_2885']!.depth?.bids.length).toBeGreaterThan(0);
    const ltp = await c.quotesLtp(['NSE_2885']);
    expect(ltp['NSE_2885']!.ltp).toBeGreaterThan(0);
    const depth = await c.quotesDepth(['NSE_2885']);
    expect(depth['NSE_2885']!.asks.length).toBeGreaterThan(0);
  });

  it('batches 1000 codes a call and isolates bad codes by bisection instead of failing the batch', async () => {
    const good = ['NSE_2885', 'NSE_11536', 'NSE_1333', 'NSE_1594'];
    const r = await ltpQuotes(h.broker.client, [...good, 'NSE_99999991', 'NSE_2885']);
    expect(Object.keys(r.quotes).sort()).toEqual([...good].sort());
    expect(r.invalid).toEqual(['NSE_99999991']);
    expect(r.calls).toBeGreaterThan(1);
    const full = await fullQuotes(h.broker.client, good);
    expect(Object.keys(full.quotes)).toHaveLength(4);
    expect(full.calls).toBe(1);
  });

  it('reads circuit bands alone from full quotes, in batches of the size asked, the same bands as the whole quote', async () => {
    const codes = ['NSE_2885', 'NSE_11536', 'NSE_1333', 'NSE_1594', 'NSE_99999991'];
    const bands = await circuitQuotes(h.broker.client, codes, 2);
    expect(bands.invalid).toEqual(['NSE_99999991']);
    const full = await fullQuotes(h.broker.client, codes.slice(0, 4));
    for (const code of codes.slice(0, 4)) {
      const q = full.quotes[code]!;
      expect(q.upperCircuit).toBeGreaterThan(q.lowerCircuit!);
      expect(bands.quotes[code]).toStrictEqual({ upperCircuit: q.upperCircuit, lowerCircuit: q.lowerCircuit });
    }
  });
});

describe('instruments and contracts', () => {
  it('downloads the instrument master once per day, parses it and serves the cache after', async () => {
    const first = await loadInstrumentMaster(h.broker.client, h.sim.clock, 'equity', cacheDir);
    expect(first.fromCache).toBe(false);
    expect(first.instruments.length).toBeGreaterThanOrEqual(40);
    expect(first.instruments.find((i) => i.id === 'NSE_2885')?.symbol).toBe('RELIANCE');
    const again = await loadInstrumentMaster(h.broker.client, h.sim.clock, 'equity', cacheDir);
    expect(again.fromCache).toBe(true);
    expect(again.instruments.length).toBe(first.instruments.length);
    const index = await loadInstrumentMaster(h.broker.client, h.sim.clock, 'index', cacheDir);
    expect(index.instruments.some((i) => i.kind === 'INDEX')).toBe(true);
  });

  it('walks every page of a contract search as an async iterator', async () => {
    const expiries = await h.broker.client.expiries('NIFTY');
    expect(expiries.length).toBeGreaterThan(0);
    expect([...expiries].sort()).toEqual(expiries);
    const input = { underlying: 'NIFTY', expiry: expiries[0]!, instrumentType: 'OPTIDX' as const, pageSize: 100 };
    let pages = 0;
    let count = 0;
    for await (const p of contractPages(h.broker.client, input)) {
      pages++;
      count = p.count;
    }
    const all: string[] = [];
    for await (const c of searchContracts(h.broker.client, input)) all.push(c.securityId);
    expect(all.length).toBe(count);
    expect(new Set(all).size).toBe(count);
    expect(pages).toBe(Math.ceil(count / 100));
  });

  it('reads expired expiries, expired search and a whole expired chain', async () => {
    const c = h.broker.client;
    const today = istDate(h.sim.clock.now());
    const expired = await c.expiredExpiries('NIFTY', addDays(today, -300), addDays(today, -10));
    expect(expired.length).toBeGreaterThan(0);
    expect([...expired].sort().reverse()).toEqual(expired);
    const chain = await c.expiredContracts('NIFTY', expired[0]!);
    expect(chain.length).toBeGreaterThan(10);
    expect(chain.every((x) => x.tradingSymbol.length > 0)).toBe(true);
    const page = await c.searchExpiredContracts({ underlying: 'NIFTY', expiryFrom: expired.at(-1)!, expiryTo: expired[0]!, instrumentType: 'FUTIDX' });
    expect(page.instruments.every((i) => i.strike === undefined && i.optionType === undefined)).toBe(true);
  });

  it('reads the option chain, its utility forms and greeks', async () => {
    const c = h.broker.client;
    const expiries = await c.expiries('NIFTY');
    const chain = await c.optionChain({ exchange: 'NSE', segment: 'INDEX', underlyingScrip: '13', expiry: expiries[0]!, strikeCount: 2 });
    expect(chain).toBeTruthy();
    const option = (await c.searchContracts({ underlying: 'NIFTY', expiry: expiries[0]!, instrumentType: 'OPTIDX', optionType: 'CE', pageSize: 1 })).instruments[0]!;
    const g = await c.greeks([option.securityId]);
    expect(g).toHaveLength(1);
    expect(Math.abs(g[0]!.delta)).toBeLessThanOrEqual(1);
  });
});

describe('historical candles', () => {
  it('pages a long range by the interval maximum, merges without duplicates and keeps past windows in the catalog', async () => {
    const catalog = new CandleCatalog(join(cacheDir, 'catalog'));
    const now = h.sim.clock.now();
    const from = now - 20 * DAY_MS;
    const to = now - 2 * DAY_MS;
    const r = await fetchCandleRange(h.broker.client, h.sim.clock, { code: 'NSE_2885', interval: '15minute', from, to, catalog });
    expect(r.calls).toBe(3); // 18 days at 7 days a call
    expect(r.candles.length).toBeGreaterThan(50);
    const starts = r.candles.map((c) => c.start);
    expect(new Set(starts).size).toBe(starts.length);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(starts[0]!).toBeGreaterThanOrEqual(from);
    expect(starts.at(-1)!).toBeLessThan(to);
    const again = await fetchCandleRange(h.broker.client, h.sim.clock, { code: 'NSE_2885', interval: '15minute', from, to, catalog });
    expect(again.calls).toBe(0);
    expect(again.cacheHits).toBe(3);
    expect(again.candles).toEqual(r.candles);
    // Parquet per month (with its column image) and the manifest that records the windows downloaded.
    const files = await readdir(join(cacheDir, 'catalog', '15minute', 'NSE_2885'));
    expect(files.filter((f) => f.endsWith('.parquet')).length).toBeGreaterThanOrEqual(1);
    expect(catalog.manifest('NSE_2885', '15minute')!.covered).toEqual([[from, to]]);
    catalog.close();
  });

  it('reads several scrip codes in one call', async () => {
    const now = h.sim.clock.now();
    const data = await h.broker.client.historical('1day', ['NSE_2885', 'NSE_11536'], now - 30 * DAY_MS, now);
    expect(Object.keys(data).sort()).toEqual(['NSE_11536', 'NSE_2885']);
  });
});

describe('orders', () => {
  it('places, reads, modifies and cancels an order, and reads its trades and the trade book', async () => {
    const c = h.broker.client;
    const q = await c.quotesLtp(['NSE_2885']);
    const ltp = q['NSE_2885']!.ltp;
    const far = Math.floor((ltp * 0.8) / 10) * 10;
    const placed = acked(await c.placeOrder({ side: 'BUY', exchange: 'NSE', segment: 'EQUITY', securityId: '2885', qty: 2, orderType: 'LIMIT', limitPrice: far, validity: 'DAY', product: 'CNC', remarks: 'client-test:1' }));
    expect(placed.venueStatus).toBe('O-PENDING');
    const rec = await c.order(placed.orderId, 'EQUITY');
    expect(rec).toMatchObject({ orderId: placed.orderId, remarks: 'client-test:1', qty: 2, price: far, status: 'OPEN' });
    const mod = acked(await c.modifyOrder({ orderId: placed.orderId, segment: 'EQUITY', qty: 3, limitPrice: far - 10 }));
    expect(mod.venueStatus).toBe('MODIFIED');
    expect(await c.order(placed.orderId, 'EQUITY')).toMatchObject({ qty: 3, price: far - 10 });
    const cancelled = acked(await c.cancelOrder(placed.orderId, 'EQUITY'));
    expect(cancelled.venueStatus).toBe('CANCELLED');

    const market = acked(await c.placeOrder({ side: 'BUY', exchange: 'NSE', segment: 'EQUITY', securityId: '2885', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'CNC', remarks: 'client-test:2' }));
    const trades = await c.trades(market.orderId, 'EQUITY');
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]!.remarks).toBe('client-test:2');
    const book = await c.tradeBook();
    expect(book.some((t) => t.orderId === market.orderId)).toBe(true);
    expect((await c.orderBook()).filter((o) => o.remarks === 'client-test:2').map((o) => o.orderId)).toEqual([market.orderId]);
  });

  it('places, modifies and cancels a smart order with stop-loss and target legs', async () => {
    const c = h.broker.client;
    const ltp = (await c.quotesLtp(['NSE_2885']))['NSE_2885']!.ltp;
    const entry = Math.floor((ltp * 0.9) / 10) * 10;
    const r = acked(await c.placeSmartOrder({
      side: 'BUY', exchange: 'NSE', segment: 'EQUITY', securityId: '2885', qty: 1, orderType: 'LIMIT', validity: 'DAY', product: 'CNC',
      limitPrice: entry, slTriggerPrice: entry - 2000, tgtTriggerPrice: entry + 2000, remarks: 'client-test:smart',
    }));
    const parent = r[0]!;
    expect(parent.children).toHaveLength(2);
    const mod = acked(await c.modifySmartOrder({ orderId: parent.orderId, segment: 'EQUITY', limitPrice: entry - 10 }));
    expect(mod.venueStatus).toBe('MODIFIED');
    const cancel = acked(await c.cancelSmartOrder(parent.orderId, 'EQUITY'));
    expect(cancel.venueStatus).toBe('CANCELLED');
  });
});
