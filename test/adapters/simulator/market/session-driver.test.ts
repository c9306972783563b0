import { describe, expect, it } from 'vitest';
import { MarketCalendar } from '../../../../src/core/calendar.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { InstrumentTable, type Instrument } from '../../../../src/core/instruments.js';
import { istDateTime } from '../../../../src/core/time.js';
import { MarketModel, MarketSessionDriver, type MarketTick } from '../../../../src/adapters/simulator/market/index.js';
import { MatchingEngine, noCharges } from '../../../../src/adapters/simulator/matching/index.js';
import { RELIANCE } from '../../../support/instruments.js';

const INST: Instrument = RELIANCE;
const FRI_OPEN = istDateTime('2026-11-20', '09:15');
const FRI_CLOSE = istDateTime('2026-11-20', '15:30');
const MON_OPEN = istDateTime('2026-11-23', '09:15');

function setup() {
  const calendar = new MarketCalendar({ holidays: [] });
  const clock = new VirtualClock(istDateTime('2026-11-20', '09:00'));
  const model = new MarketModel([{ instrument: INST, prevClose: 142_650 }], { seed: 8, sessionOpen: FRI_OPEN, tickIntervalMs: 5_000 });
  const engine = new MatchingEngine({ instruments: new InstrumentTable([INST]), clock, sessionOpen: false, accountOptions: { charges: noCharges } });
  const ticks: MarketTick[] = [];
  const sessions: string[] = [];
  const driver = new MarketSessionDriver({
    model,
    engine,
    calendar,
    onTick: (t) => ticks.push(t),
    onSession: (e) => sessions.push(`${e.phase} ${e.session.date}${e.segment ? ` ${e.segment}` : ''}`),
  });
  return { clock, model, engine, driver, ticks, sessions };
}

describe('market session driver', () => {
  it('opens, ticks, expires DAY orders at the close and rolls over the weekend to Monday', () => {
    const s = setup();
    s.driver.pump(s.clock.now());
    expect(s.ticks).toHaveLength(0);
    expect(s.engine.isSessionOpen()).toBe(false);

    s.clock.advanceTo(FRI_OPEN + 60_000);
    s.driver.pump(s.clock.now());
    expect(s.sessions).toEqual(['open 2026-11-20']);
    expect(s.ticks.length).toBe(13);
    const day = s.engine.placeOrder({ instrument: INST.id, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: 120_000, validity: 'DAY', product: 'CNC' });
    expect(day.venueStatus).toBe('O-PENDING');

    s.clock.advanceTo(istDateTime('2026-11-21', '10:00'));
    s.driver.pump(s.clock.now());
    // The broker's intraday square-offs come before the close, in time order (equity 15:20, F&O 15:25, currency within the session).
    expect(s.sessions).toEqual(['open 2026-11-20', 'square-off 2026-11-20 EQUITY', 'square-off 2026-11-20 FNO', 'square-off 2026-11-20 CURRENCY', 'close 2026-11-20']);
    expect(s.engine.getOrder(day.orderId)!.venueStatus).toBe('EXPIRED');
    expect(s.ticks.every((t) => t.ts >= FRI_OPEN && t.ts < FRI_CLOSE)).toBe(true);
    expect(s.driver.currentSession.date).toBe('2026-11-23');
    const fridayClose = s.model.lastPrice(INST.id)!;

    const amo = s.engine.placeOrder({ instrument: INST.id, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'CNC', isAmo: true });
    expect(amo.venueStatus).toBe('O-PENDING');
    s.clock.advanceTo(MON_OPEN);
    s.driver.pump(s.clock.now());
    const monday = s.ticks.filter((t) => t.ts >= MON_OPEN);
    expect(monday).toHaveLength(1);
    expect(monday[0]!.close).toBe(fridayClose);
    expect(monday[0]!.mode).toBe('open');
    const filled = s.engine.getOrder(amo.orderId)!;
    expect(filled.venueStatus).toBe('SUCCESS');
    expect(filled.avgPrice).toBe(monday[0]!.ltp);
  });

  it('gives the same ticks however often it is pumped', () => {
    const a = setup();
    a.driver.pump(MON_OPEN + 30_000);
    const b = setup();
    for (let t = FRI_OPEN - 60_000; t <= MON_OPEN + 30_000; t += 7 * 60_000 + 13) b.driver.pump(t);
    b.driver.pump(MON_OPEN + 30_000);
    expect(b.ticks.length).toBe(a.ticks.length);
    expect(JSON.stringify(b.ticks)).toBe(JSON.stringify(a.ticks));
    expect(b.sessions).toEqual(a.sessions);
  });

  it('refuses a model whose session does not match the calendar', () => {
    const calendar = new MarketCalendar({ holidays: [] });
    const clock = new VirtualClock(FRI_OPEN);
    const model = new MarketModel([{ instrument: INST, prevClose: 142_650 }], { seed: 8, sessionOpen: FRI_OPEN + 1 });
    const engine = new MatchingEngine({ instruments: new InstrumentTable([INST]), clock });
    expect(() => new MarketSessionDriver({ model, engine, calendar })).toThrow(/calendar's session/);
  });
});
