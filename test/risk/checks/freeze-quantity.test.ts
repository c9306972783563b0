import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src/core/instruments.js';
import { istDateTime } from '../../../src/core/time.js';
import { freezeLimitMessage } from '../../../src/risk/rules/freeze-quantity.js';
import { NIFTY_FUT, riskFixture } from '../fixture.js';
import { stockFreezeHome, type StockFreezeHome } from '../../support/stock-freeze.js';

const SENSEX_CE: Instrument = {
  id: 'BFO_861234', exchange: 'BSE', segment: 'FNO', securityId: '861234', kind: 'OPTIDX', tradingSymbol: 'SENSEX26DEC85000CE', symbol: 'SENSEX', lotSize: 20, tickSize: 5, expiry: '2026-12-24', strike: 8_500_000, optionType: 'CE',
};
const RELIANCE_FUT: Instrument = {
  id: 'NFO_52001', exchange: 'NSE', segment: 'FNO', securityId: '52001', kind: 'FUTSTK', tradingSymbol: 'RELIANCE26DECFUT', symbol: 'RELIANCE', lotSize: 500, tickSize: 10, expiry: '2026-12-29',
};
const buy = (instrument: Instrument, qty: number) =>
  ({ kind: 'place', id: `${instrument.symbol}-${qty}`, strategyId: 's', instrument: instrument.id, side: 'BUY', qty, orderType: 'MARKET', validity: 'DAY', product: 'MARGIN' }) as const;

let home: StockFreezeHome | undefined;
afterEach(() => {
  home?.close();
  home = undefined;
});

// The fixture's clock is 2025-01-06: NIFTY's freeze quantity is 1800 (NSE, from 2024-08-01); lot 75.
const place = (qty: number, kind: 'place' | 'smart' = 'place') =>
  kind === 'place'
    ? ({ kind, id: `o${qty}`, strategyId: 's', instrument: NIFTY_FUT.id, side: 'BUY', qty, orderType: 'LIMIT', limitPrice: 2_350_000, validity: 'DAY', product: 'MARGIN' } as const)
    : ({ kind, id: `o${qty}`, strategyId: 's', instrument: NIFTY_FUT.id, side: 'BUY', qty, entryType: 'LIMIT', limitPrice: 2_350_000, validity: 'DAY', product: 'MARGIN' } as const);

describe('risk: freeze quantity', () => {
  it('denies an F&O order above the freeze quantity with the broker\'s words (FREEZE_QTY)', () => {
    const { risk } = riskFixture();
    expect(risk.evaluate(place(1800))).toBeNull();
    const d = risk.evaluate(place(1875));
    expect(d).toEqual({ code: 'FREEZE_QTY', reason: freezeLimitMessage(NIFTY_FUT, 1875, 1800) });
    expect(d?.reason).toContain('exceeds the freeze limit of 1800 for NIFTY');
  });

  it('with execution.autoSlice lets a regular order through when 10 slices hold it, never a smart order', () => {
    const { risk } = riskFixture({}, { autoSlice: true });
    expect(risk.evaluate(place(5400))).toBeNull();
    expect(risk.evaluate(place(18_000))).toBeNull();
    expect(risk.evaluate(place(18_075))?.reason).toMatch(/would need 11 slices; at most 10 are allowed/);
    expect(risk.evaluate(place(5400, 'smart'))?.code).toBe('FREEZE_QTY');
  });

  it('denies a modification that takes an order above the freeze quantity', () => {
    const { risk, world } = riskFixture({}, { autoSlice: true });
    world.orders.set('t1', { tag: 't1', strategyId: 's', orderId: '1', instrument: NIFTY_FUT.id, side: 'BUY', qty: 1800, orderType: 'LIMIT', product: 'MARGIN', validity: 'DAY', limitPrice: 2_350_000, status: 'OPEN', filledQty: 0, filledValue: 0, modifications: 0 });
    expect(risk.evaluate({ kind: 'modify', id: 'm1', strategyId: 's', target: 't1', qty: 1875 })?.code).toBe('FREEZE_QTY');
    expect(risk.evaluate({ kind: 'modify', id: 'm2', strategyId: 's', target: 't1', limitPrice: 2_349_000 })).toBeNull();
  });

  it('denies a BSE index option (BFO) above its exchange\'s limit in force that day: SENSEX 1000 from 2026-02-01, none known before', () => {
    const { risk, clock } = riskFixture({}, { instruments: [SENSEX_CE] });
    clock.advanceTo(istDateTime('2026-11-20', '10:00'));
    expect(risk.evaluate(buy(SENSEX_CE, 1000))).toBeNull();
    expect(risk.evaluate(buy(SENSEX_CE, 1020))).toEqual({ code: 'FREEZE_QTY', reason: freezeLimitMessage(SENSEX_CE, 1020, 1000) });
    expect(risk.evaluate(buy(SENSEX_CE, 1020))?.reason).toContain('exceeds the freeze limit of 1000 for SENSEX');
  });

  it('does not check a BFO order dated before the first BSE revision (no BSE limit known then)', () => {
    // The fixture's clock: 2025-01-06. Only this check runs, so passing means it passed.
    const { risk } = riskFixture({ checks: ['freezeQty'] }, { instruments: [SENSEX_CE] });
    expect(risk.evaluate(buy(SENSEX_CE, 2000))).toBeNull();
  });

  it('denies a stock future above the limit of the qtyfreeze file in force (illustrative numbers), and none without one', () => {
    home = stockFreezeHome();
    const { risk, clock } = riskFixture({ checks: ['freezeQty'] }, { instruments: [RELIANCE_FUT] });
    clock.advanceTo(istDateTime('2026-11-20', '10:00'));
    // Nothing imported: no stock limit known, as before.
    expect(risk.evaluate(buy(RELIANCE_FUT, 3500))).toBeNull();
    home.store('2026-11-20');
    expect(risk.evaluate(buy(RELIANCE_FUT, 3000))).toBeNull();
    expect(risk.evaluate(buy(RELIANCE_FUT, 3500))).toEqual({ code: 'FREEZE_QTY', reason: freezeLimitMessage(RELIANCE_FUT, 3500, 3000) });
  });

  it('with execution.autoSlice lets a stock order through that slices into whole lots', () => {
    home = stockFreezeHome();
    home.store('2026-11-02');
    const { risk, clock } = riskFixture({ checks: ['freezeQty'] }, { instruments: [RELIANCE_FUT], autoSlice: true });
    clock.advanceTo(istDateTime('2026-11-20', '10:00'));
    expect(risk.evaluate(buy(RELIANCE_FUT, 3500))).toBeNull();
    expect(risk.evaluate(buy(RELIANCE_FUT, 30_500))?.reason).toMatch(/exceeds the freeze limit of 3000 for RELIANCE and would need 11 slices; at most 10 are allowed/);
  });
});
