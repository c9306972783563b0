/**
 * Expiry-day exposure margin (SEBI 2024): short index options on their expiry day carry 2% of
 * notional more exposure margin. One MarginModel serves risk and the simulator's account (paper
 * and backtest), so both block the same amount.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { InstrumentTable, type Instrument } from '../../src/core/instruments.js';
import type { PlaceIntent } from '../../src/core/intents.js';
import { istDateTime } from '../../src/core/time.js';
import { VenueAccount } from '../../src/adapters/simulator/matching/account.js';
import { MarginModel } from '../../src/risk/margin-model.js';
import { riskFixture } from './fixture.js';

// Expires on the fixture's day (2025-01-06, its clock starts 09:15 IST).
const NIFTY_CE: Instrument = {
  id: 'NFO_40001', exchange: 'NSE', segment: 'FNO', securityId: '40001', kind: 'OPTIDX', tradingSymbol: 'NIFTY25JAN23500CE',
  symbol: 'NIFTY', lotSize: 75, tickSize: 5, expiry: '2025-01-06', strike: 2_350_000, optionType: 'CE',
};
const EXPIRY_DAY = istDateTime('2025-01-06', '10:00');
const DAY_BEFORE = istDateTime('2025-01-03', '10:00');

describe('expiry-day exposure margin', () => {
  it('adds 2% of strike value to a short index option on its expiry day only', () => {
    const clock = new VirtualClock(DAY_BEFORE);
    const m = new MarginModel({}, () => clock.now());
    // 75 x 23,500 = 17,62,500: span 12% = 2,11,500; exposure 3% = 52,875.
    expect(m.required(NIFTY_CE, 'SELL', 75, 10_000, 'MARGIN')).toEqual({ span: 21_150_000, exposure: 5_287_500, total: 26_437_500 });
    clock.advanceTo(EXPIRY_DAY);
    // Exposure 5% = 88,125.
    expect(m.required(NIFTY_CE, 'SELL', 75, 10_000, 'MARGIN')).toEqual({ span: 21_150_000, exposure: 8_812_500, total: 29_962_500 });
    // A buyer pays the premium, expiry day or not.
    expect(m.required(NIFTY_CE, 'BUY', 75, 10_000, 'MARGIN').total).toBe(750_000);
  });

  it('is charged by the simulated account (paper and backtest) from its clock', () => {
    const clock = new VirtualClock(EXPIRY_DAY);
    const account = new VenueAccount({ instruments: new InstrumentTable([NIFTY_CE]), now: () => clock.now() });
    const r = account.calculateMargin({ instrument: NIFTY_CE.id, side: 'SELL', qty: 75, price: 10_000, product: 'MARGIN' });
    expect([r.spanMargin, r.exposureMargin, r.totalMargin]).toEqual([21_150_000, 8_812_500, 29_962_500]);
  });

  it('is checked by risk before the order leaves: enough funds the day before, not on the expiry day', () => {
    // Expires the day after the fixture's day.
    const weekly: Instrument = { ...NIFTY_CE, id: 'NFO_40002', securityId: '40002', expiry: '2025-01-07' };
    const sell: PlaceIntent = { kind: 'place', id: 'x1', strategyId: 's1', instrument: weekly.id, side: 'SELL', qty: 75, orderType: 'LIMIT', limitPrice: 10_000, validity: 'DAY', product: 'MARGIN' };
    const { risk, world, clock } = riskFixture({}, { instruments: [weekly] });
    world.funds = 28_000_000; // 2,80,000 rupees
    expect(risk.evaluate(sell)).toBeNull();
    clock.advanceTo(istDateTime('2025-01-07', '09:20'));
    expect(risk.evaluate(sell)).toEqual({ code: 'INSUFFICIENT_FUNDS', reason: 'needs margin ₹2,99,625.00, available ₹2,80,000.00' });
  });
});
