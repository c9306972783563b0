import { describe, expect, it } from 'vitest';
import { freezeLimitMessage } from '../../../src/risk/rules/freeze-quantity.js';
import { NIFTY_FUT, riskFixture } from '../fixture.js';

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
});
