import { describe, expect, it } from 'vitest';
import type { PlaceIntent } from '../../../src/core/intents.js';
import { defaultMarketProtectionPct, marketProtectionNote, protectionPrice } from '../../../src/risk/rules/market-protection.js';
import { riskFixture } from '../fixture.js';

const marketBuy = (): PlaceIntent => ({ kind: 'place', id: 'mp1', strategyId: 's1', instrument: 'NSE_2885', side: 'BUY', qty: 100, orderType: 'MARKET', validity: 'DAY', product: 'CNC' });

describe('market protection (the rule)', () => {
  it('limits a buy above and a sell below the last price, on the tick towards it, inside the band', () => {
    expect(defaultMarketProtectionPct()).toBe(3);
    // 1,426.50 x 1.03 = 1,469.295 -> down to the 5-paise tick; x 0.97 = 1,383.705 -> up.
    expect(protectionPrice('BUY', 142_650, 3, 5, undefined, undefined)).toBe(146_925);
    expect(protectionPrice('SELL', 142_650, 3, 5, undefined, undefined)).toBe(138_375);
    expect(protectionPrice('BUY', 142_650, 3, 5, 145_000, 130_000)).toBe(145_000);
    expect(marketProtectionNote(146_925, 3)).toBe('MARKET order placed as LIMIT at 1469.25 (market protection 3%)');
  });
});

describe('market protection in risk', () => {
  it('values a MARKET buy at its protection price, so margin the broker would block is checked first', () => {
    const { risk, world } = riskFixture();
    // 100 x 1,426.50 = 1,42,650 fits; 100 x 1,469.25 = 1,46,925 (what the broker blocks) does not.
    world.funds = 145_000_00;
    expect(risk.evaluate(marketBuy())).toEqual({ code: 'INSUFFICIENT_FUNDS', reason: 'needs margin ₹1,46,925.00, available ₹1,45,000.00' });
  });

  it('uses the configured percentage', () => {
    const { risk, world } = riskFixture({ marketProtectionPct: 1 });
    world.funds = 145_000_00;
    // 1,426.50 x 1.01 = 1,440.765 -> 1,440.75: 1,44,075 fits.
    expect(risk.evaluate(marketBuy())).toBeNull();
  });

  it('refuses a percentage outside (0, 100] naming the key', () => {
    expect(() => riskFixture({ marketProtectionPct: 0 })).toThrow(/risk\.marketProtectionPct/);
  });
});
