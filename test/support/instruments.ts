/** Instruments the tests share: one literal each, as the NSE master describes them. */
import type { Instrument } from '../../src/core/instruments.js';

/** RELIANCE on the NSE cash market (security id 2885): 1 share lots, 5 paise ticks. */
export const RELIANCE: Instrument = {
  id: 'NSE_2885',
  exchange: 'NSE',
  segment: 'EQUITY',
  securityId: '2885',
  kind: 'EQUITY',
  tradingSymbol: 'RELIANCE',
  symbol: 'RELIANCE',
  lotSize: 1,
  tickSize: 5,
  series: 'EQ',
};
