/** BrokerVenue, the ExecutionVenue of live and paper trading, against the simulator. */
import { filter, firstValueFrom, timeout } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { BrokerVenue } from '../../../src/adapters/broker/venue.js';
import type { VenueOrderRequest, VenueUpdate } from '../../../src/adapters/execution/venue.js';

let h: Harness;
let venue: BrokerVenue;
let price = 0;
beforeAll(async () => {
  h = await startHarness({ config: { ws: { positionPollMs: 300 } } });
  venue = new BrokerVenue(h.broker);
  const ltp = (await h.broker.client.quotesLtp(['NSE_2885']))['NSE_2885']!.ltp;
  price = Math.floor((ltp * 0.95) / 10) * 10;
});
afterAll(async () => {
  await venue.close();
  await h.close();
});

const req = (tag: string, extra: Partial<VenueOrderRequest> = {}): VenueOrderRequest => ({
  tag, instrument: 'NSE_2885', side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: price, validity: 'DAY', product: 'CNC', isAmo: false, ...extra,
});

describe('BrokerVenue', () => {
  it('places, modifies and cancels, answering accepted; the book shows the tag and the state', async () => {
    const placed = await venue.place(req('venue:1'));
    expect(placed).toMatchObject({ status: 'accepted', venueStatus: 'O-PENDING' });
    if (placed.status !== 'accepted') return;
    expect((await venue.modify({ tag: 'venue:1', orderId: placed.orderId, instrument: 'NSE_2885', limitPrice: price - 10, orderType: 'LIMIT' })).status).toBe('accepted');
    const book = await venue.orderBook();
    expect(book.find((o) => o.orderId === placed.orderId)).toMatchObject({ tag: 'venue:1', instrument: 'NSE_2885', limitPrice: price - 10, status: 'OPEN', side: 'BUY', orderType: 'LIMIT', product: 'CNC' });
    expect((await venue.cancel({ tag: 'venue:1', orderId: placed.orderId, instrument: 'NSE_2885' })).status).toBe('accepted');
  });

  it('answers rejected (with the broker message) for a refusal, never unknown', async () => {
    const r = await venue.place(req('venue:2', { qty: 10_000_000, orderType: 'MARKET', limitPrice: undefined }));
    expect(r.status).toBe('rejected');
    if (r.status === 'rejected') expect(r.reason).toMatch(/funds|margin/i);
    expect((await venue.place(req('venue:3', { instrument: 'NIDX_13' }))).status).toBe('rejected');
  });

  it('reports fills, positions, funds and margin in paise', async () => {
    const r = await venue.place(req('venue:fill', { orderType: 'MARKET', limitPrice: undefined, qty: 2, product: 'INTRADAY' }));
    if (r.status !== 'accepted') throw new Error(JSON.stringify(r));
    const fills = await venue.trades(r.orderId);
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.every((f) => f.tag === 'venue:fill' && f.instrument === 'NSE_2885' && f.side === 'BUY' && Number.isInteger(f.price))).toBe(true);
    expect(fills.reduce((s, f) => s + f.qty, 0)).toBe(2);
    expect((await venue.trades()).some((f) => f.orderId === r.orderId)).toBe(true);
    const pos = await venue.positions();
    expect(pos.find((p) => p.instrument === 'NSE_2885' && p.product === 'INTRADAY')?.netQty).toBe(2);
    const funds = await venue.funds();
    expect(Number.isInteger(funds.available)).toBe(true);
    const m = await venue.margin({ instrument: 'NSE_2885', side: 'BUY', qty: 1, price, product: 'CNC' });
    expect(m.required).toBeGreaterThan(0);
  });

  it('places a smart order and reports the ids of its legs', async () => {
    const r = await venue.placeSmart({ tag: 'venue:smart', instrument: 'NSE_2885', side: 'BUY', qty: 1, entryType: 'LIMIT', limitPrice: price, stopLoss: { triggerPrice: price - 2000 }, target: { triggerPrice: price + 2000 }, validity: 'DAY', product: 'CNC' });
    expect(r.status).toBe('accepted');
    if (r.status !== 'accepted') return;
    expect(r.legs?.stopLoss).toBeTruthy();
    expect(r.legs?.target).toBeTruthy();
    expect((await venue.cancelSmart({ tag: 'venue:smart', orderId: r.orderId, instrument: 'NSE_2885', leg: 'entry' })).status).toBe('accepted');
  });

  it('streams order updates and polls positions when the stream sends none', async () => {
    const updates: VenueUpdate[] = [];
    const sub = venue.updates.subscribe((u) => updates.push(u));
    try {
      await firstValueFrom(venue.updates.pipe(filter((u) => u.kind === 'connection' && u.connected), timeout(10_000)));
      const order = firstValueFrom(venue.updates.pipe(filter((u) => u.kind === 'order' && u.order.tag === 'venue:stream'), timeout(10_000)));
      await venue.place(req('venue:stream'));
      expect((await order).kind).toBe('order');
      const position = await firstValueFrom(venue.updates.pipe(filter((u) => u.kind === 'position'), timeout(10_000)));
      expect(position.kind === 'position' && position.position.instrument).toBe('NSE_2885');
      expect(h.broker.orderUpdates({ fetchOrders: async () => [], fetchPositions: async () => [] }).stats().polls).toBeGreaterThan(0);
    } finally {
      sub.unsubscribe();
    }
  });
});
