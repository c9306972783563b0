/** An engine over a RecordingVenue on a virtual clock, with two instruments, for execution tests. */
import { Engine } from '../../../src/engine/engine.js';
import type { StrategySpec } from '../../../src/engine/engine-options.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Event } from '../../../src/core/events.js';
import { InstrumentTable, type Instrument } from '../../../src/core/instruments.js';
import { MemoryStore, type Store } from '../../../src/core/store.js';
import { istDateTime } from '../../../src/core/time.js';
import { RecordingVenue, type RecordingVenueOptions } from '../../../src/adapters/execution/recording-venue.js';
import type { RiskConfigInput } from '../../../src/risk/config.js';
import type { ExecutionConfigInput } from '../../../src/adapters/execution/config.js';
import type { Strategy } from '../../../src/strategies/strategy.js';
import { RELIANCE } from '../../support/instruments.js';

export { RELIANCE };
export const TCS: Instrument = {
  id: 'NSE_11536', exchange: 'NSE', segment: 'EQUITY', securityId: '11536', kind: 'EQUITY',
  tradingSymbol: 'TCS', symbol: 'TCS', lotSize: 1, tickSize: 5,
};
export const T0 = istDateTime('2025-01-06', '09:15');

export interface HarnessOptions {
  strategies?: StrategySpec[];
  venue?: Omit<RecordingVenueOptions, 'clock'>;
  risk?: RiskConfigInput;
  execution?: ExecutionConfigInput;
  store?: Store;
  buildCandles?: boolean;
  retainFinishedOrders?: number;
  /** Runs before the engine starts (seed the venue's book, the store). */
  before?: (venue: RecordingVenue, clock: VirtualClock) => void | Promise<void>;
}

/** A strategy object with nothing but the given hooks, over RELIANCE. */
export function bare(hooks: Partial<Strategy> = {}): Strategy {
  return { instruments: ['NSE_2885'], ...hooks };
}

export async function harness(o: HarnessOptions = {}) {
  const clock = new VirtualClock(T0);
  const venue = new RecordingVenue({ clock, ...o.venue });
  const store = o.store ?? new MemoryStore();
  await o.before?.(venue, clock);
  const engine = await Engine.create({
    clock, venue, store, instruments: new InstrumentTable([RELIANCE, TCS]), strategies: o.strategies ?? [],
    ...(o.risk ? { risk: o.risk } : {}), ...(o.execution ? { execution: o.execution } : {}),
    ...(o.buildCandles !== undefined ? { buildCandles: o.buildCandles } : {}),
    ...(o.retainFinishedOrders !== undefined ? { retainFinishedOrders: o.retainFinishedOrders } : {}),
  });
  const events: Event[] = [];
  engine.bus.onAny((e) => events.push(e));
  await engine.start();
  const tick = (ltp: number, instrument = 'NSE_2885', dt = 1000) => {
    clock.advanceBy(dt);
    engine.publishTick({ type: 'tick', ts: clock.now(), instrument, ltp });
  };
  const of = <T extends Event['type']>(type: T) => events.filter((e): e is Extract<Event, { type: T }> => e.type === type);
  return { clock, venue, store, engine, events, tick, of };
}
