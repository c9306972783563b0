import { describe, expect, it } from 'vitest';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { istDate, istDateTime } from '../../../../src/core/time.js';
import { STT_OPTIONS_EXERCISED } from '../../../../src/adapters/simulator/matching/index.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';
import { startHarness, T0, type Harness } from './sim-harness.js';

type Msg = Record<string, unknown>;
const calendar = nseCalendar();
const paise = (rupees: unknown): number => Math.round(Number(rupees) * 100);

/** Places a MARKET order in a NIFTY contract; returns the cost of its fills (paise) after checking it filled in full. */
async function trade(h: Harness, securityId: string, side: 'BUY' | 'SELL', qty: number): Promise<number> {
  const placed = await h.call<{ data: { order_id: string } }>('POST', '/order', {
    body: { txn_type: side, exchange: 'NSE', segment: 'FNO', security_id: securityId, qty, order_type: 'MARKET', validity: 'DAY', product: 'MARGIN', is_amo: false, algo_id: '99999', remarks: `exp-${securityId}` },
  });
  expect(placed.status, placed.text).toBe(200);
  const fills = await h.call<{ data: Msg[] }>('GET', `/trades/${placed.body.data.order_id}?segment=DERIVATIVE`);
  expect(fills.status, fills.text).toBe(200);
  expect(fills.body.data.reduce((n, f) => n + Number(f['quantity']), 0)).toBe(qty);
  return fills.body.data.reduce((v, f) => v + Number(f['quantity']) * paise(f['price']), 0);
}

describe('expiry settlement over HTTP and WebSocket', () => {
  it('settles a long ITM call, a short OTM put and a long future at the next open: exact P&L, margin released, flat positions, position updates pushed', async () => {
    const h = await startHarness({ rateLimits: false, tokenLifetimeMs: 10 * 86_400_000 });
    try {
      const u = Universe.shared({ seed: 1, today: istDate(T0), calendar });
      const expiry = u.currentExpiries('NIFTY')[0]!;
      const chain = [...u.contracts('NIFTY', expiry)];
      const future = chain.find((c) => c.optionType === null)!;
      expect(future, `a future on ${expiry}`).toBeDefined();
      const index = u.underlying('NIFTY')!.instrument.id;
      const spot = h.sim.venue.quote(index)!.ltp;
      // The index will close the expiry session where it stands now (forced): the call 200+ below is in the money, the put 1,000+ below out.
      const S = Math.round(spot / 5) * 5;
      const below = (type: 'CE' | 'PE', gap: number) => chain.filter((c) => c.optionType === type && c.strike! <= S - gap).sort((a, b) => b.strike! - a.strike!)[0]!;
      const call = below('CE', 20_000);
      const put = below('PE', 100_000);
      const qty = future.lotSize;

      const c = await h.ws();
      c.send({ action: 'subscribe', mode: 'position_update' });
      await c.next((m) => m['type'] === 'ack' && m['stream'] === 'position_update');

      const callCost = await trade(h, call.securityId!, 'BUY', qty);
      const putProceeds = await trade(h, put.securityId!, 'SELL', qty);
      const futureCost = await trade(h, future.securityId!, 'BUY', qty);

      // The last moment of the expiry session: the index is put at S, and the session closes on it.
      const close = istDateTime(expiry, '15:30');
      expect((await h.admin('POST', '/sim/clock', { set: close - 1 })).status).toBe(200);
      const forced = await h.admin('POST', '/sim/prices', { scrip_code: index, price: (S / 100).toFixed(2) });
      expect(forced.status, forced.text).toBe(200);
      const next = calendar.currentOrNextSession(close + 1);
      expect((await h.admin('POST', '/sim/clock', { set: next.open + 60_000 })).status).toBe(200);

      const callValue = Math.max(0, S - call.strike!);
      expect(callValue).toBeGreaterThanOrEqual(20_000);
      const expected = new Map([
        [call.securityId!, qty * callValue - callCost],
        [put.securityId!, putProceeds],
        [future.securityId!, qty * S - futureCost],
      ]);
      const stt = Math.round(qty * callValue * STT_OPTIONS_EXERCISED);

      // A position update for each, at the open, flat, with the settlement's P&L.
      for (const [id, pnl] of expected) {
        const m = await c.next<Msg>((x) => x['mode'] === 'position_update' && (x['data'] as Msg)['security_id'] === id && x['timestamp'] === next.open);
        expect(m['data'], id).toMatchObject({ net_qty: 0 });
        expect(paise((m['data'] as Msg)['realized_profit']), id).toBe(pnl);
      }

      const positions = await h.call<{ data: Msg[] }>('GET', '/portfolio/positions?segment=derivative&product=margin');
      expect(positions.status, positions.text).toBe(200);
      const byId = new Map(positions.body.data.map((p) => [p['security_id'] as string, p]));
      for (const [id, pnl] of expected) {
        expect(byId.get(id), id).toMatchObject({ net_qty: 0, drv_expiry_date: expiry });
        expect(paise(byId.get(id)!['realized_profit']), id).toBe(pnl);
      }
      // The call is closed by a sale at its intrinsic value, the put bought back at 0, the future sold at S.
      expect(paise(byId.get(call.securityId!)!['day_sell_val'])).toBe(qty * callValue);
      expect(byId.get(put.securityId!)).toMatchObject({ day_buy_qty: qty, day_buy_val: 0 });
      expect(paise(byId.get(future.securityId!)!['day_sell_val'])).toBe(qty * S);

      const funds = await h.call<{ data: Msg }>('GET', '/funds');
      const f = funds.body.data;
      const realized = [...expected.values()].reduce((a, b) => a + b, 0);
      expect(paise(f['realized_pnl'])).toBe(realized);
      expect(paise(f['fno_charges'])).toBe(stt);
      // Nothing blocked any more: everything above the day's opening cash plus the settlement is available.
      expect(paise((f['detailed_avl_balance'] as Msg)['future'])).toBe(paise(f['sod_balance']) + realized - stt);
      // The control API lists them: the record the trade book cannot hold.
      const listed = await h.admin<{ data: Msg[] }>('GET', '/sim/settlements');
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data.map((x) => [x['security_id'], x['txn_type'], x['quantity'], paise(x['settlement_price']), paise(x['underlying_price']), x['basis'], paise(x['realized_profit']), paise(x['charges'])])).toEqual([
        [call.securityId!, 'SELL', qty, callValue, S, 'underlying-close', expected.get(call.securityId!), stt],
        [put.securityId!, 'BUY', qty, 0, S, 'underlying-close', putProceeds, 0],
        [future.securityId!, 'SELL', qty, S, S, 'underlying-close', expected.get(future.securityId!), 0],
      ]);
      c.ws.close();
    } finally {
      await h.close();
    }
  });
});
