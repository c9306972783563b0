import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../src/core/instruments.js';
import { resolveSymbolRefs, symbolIndex } from '../../src/daemon/symbols.js';

const eq = (id: string, sym: string): Instrument => ({ id, exchange: 'NSE', segment: 'EQUITY', securityId: id.slice(4), kind: 'EQUITY', tradingSymbol: sym, symbol: sym, lotSize: 1, tickSize: 5 });

describe('symbol references in strategy params', () => {
  const index = symbolIndex([eq('NSE_2885', 'RELIANCE'), eq('NSE_1333', 'HDFCBANK'), { ...eq('NFO_35012', 'NIFTY26NOVFUT'), exchange: 'NSE', segment: 'FNO', kind: 'FUTIDX', symbol: 'NIFTY', lotSize: 75 }]);

  it('replaces EXCHANGE:SYMBOL with scrip codes, deep, and leaves everything else', () => {
    expect(resolveSymbolRefs({ instrument: 'NSE:RELIANCE', list: ['NSE:HDFCBANK', 'NSE_2885', 'NSE:2885'], fut: 'NFO:NIFTY26NOVFUT', at: '15:20', qty: 10 }, index, 'strategies.0.params')).toEqual({
      instrument: 'NSE_2885',
      list: ['NSE_1333', 'NSE_2885', 'NSE:2885'],
      fut: 'NFO_35012',
      at: '15:20',
      qty: 10,
    });
  });

  it('names the param path of an unknown symbol', () => {
    expect(() => resolveSymbolRefs({ a: ['NSE:NOPE'] }, index, 'strategies.1.params')).toThrow('strategies.1.params.a.0: no instrument NSE:NOPE in the instrument master');
  });
});
