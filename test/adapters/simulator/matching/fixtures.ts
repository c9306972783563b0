/** Instruments, a clock and an engine for the matching tests. */
import { VirtualClock } from '../../../../src/core/clock.js';
import { InstrumentTable, type Instrument } from '../../../../src/core/instruments.js';
import { istDateTime } from '../../../../src/core/time.js';
import { MatchingEngine, noCharges, type MatchingEngineSettings, type SimEvent } from '../../../../src/adapters/simulator/matching/index.js';
import { RELIANCE } from '../../../support/instruments.js';

export { RELIANCE };

export const NIFTY_FUT: Instrument = {
  id: 'NFO_43219',
  exchange: 'NSE',
  segment: 'FNO',
  securityId: '43219',
  kind: 'FUTIDX',
  tradingSymbol: 'NIFTY25NOVFUT',
  symbol: 'NIFTY',
  lotSize: 75,
  tickSize: 10,
  expiry: '2026-11-26',
};

export const NIFTY_CE: Instrument = {
  id: 'NFO_50001',
  exchange: 'NSE',
  segment: 'FNO',
  securityId: '50001',
  kind: 'OPTIDX',
  tradingSymbol: 'NIFTY25NOV24000CE',
  symbol: 'NIFTY',
  lotSize: 75,
  tickSize: 5,
  expiry: '2026-11-26',
  strike: 2_400_000,
  optionType: 'CE',
};

export const NIFTY_INDEX: Instrument = {
  id: 'NIDX_13',
  exchange: 'NSE',
  segment: 'INDEX',
  securityId: '13',
  kind: 'INDEX',
  tradingSymbol: 'NIFTY',
  symbol: 'NIFTY',
  lotSize: 1,
  tickSize: 5,
};

export const instruments = new InstrumentTable([RELIANCE, NIFTY_FUT, NIFTY_CE, NIFTY_INDEX]);

/** 2026-11-20 (a Friday) 09:15 IST. */
export const OPEN = istDateTime('2026-11-20', '09:15');
export const CLOSE = istDateTime('2026-11-20', '15:30');

export interface Harness {
  clock: VirtualClock;
  engine: MatchingEngine;
  events: SimEvent[];
  /** Feeds a tick at clock time (advancing the clock by 1 s first). */
  tick(instrument: string, ltp: number, extra?: Record<string, unknown>): number;
}

export function harness(settings: MatchingEngineSettings & { balance?: number } = {}): Harness {
  const clock = new VirtualClock(OPEN);
  const { balance, ...rest } = settings;
  const engine = new MatchingEngine({
    instruments,
    clock,
    accountOptions: { openingBalance: balance ?? 100_000_000, charges: noCharges },
    ...rest,
  });
  const events: SimEvent[] = [];
  engine.subscribe((e) => events.push(e));
  return {
    clock,
    engine,
    events,
    tick(instrument, ltp, extra = {}) {
      clock.advanceBy(1000);
      return engine.onMarket({ instrument, ts: clock.now(), ltp, ...extra });
    },
  };
}
