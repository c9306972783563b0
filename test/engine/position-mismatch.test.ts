import { describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../src/core/events.js';
import { silentLogger } from '../../src/core/log.js';
import { PositionMismatch } from '../../src/engine/position-mismatch.js';
import { riskFixture } from '../risk/fixture.js';

function setup(mode: 'hold' | 'halt') {
  const f = riskFixture();
  const alerts: AlertEvent[] = [];
  f.bus.on('alert', (a) => alerts.push(a));
  let rereads = 0;
  const m = new PositionMismatch({ clock: f.clock, bus: f.bus, risk: f.risk, mode, recheckMs: 10_000, reread: async () => void rereads++, log: silentLogger() });
  return { ...f, alerts, m, rereads: () => rereads };
}

const buy = (qty: number) => ({ kind: 'place' as const, id: `b${qty}`, strategyId: 's1', instrument: 'NSE_2885', side: 'BUY' as const, qty, orderType: 'MARKET' as const, validity: 'DAY' as const, product: 'INTRADAY' as const });
const sell = (qty: number) => ({ ...buy(qty), id: `s${qty}`, side: 'SELL' as const });

describe('position mismatch incidents', () => {
  it('holds the instrument to reducing-only with one critical alert naming both views, re-reads, and resumes once the books agree', async () => {
    const { m, risk, alerts, clock, world, rereads } = setup('hold');
    world.net.set('NSE_2885', 10);
    m.onCheck([{ instrument: 'NSE_2885', product: 'INTRADAY', venue: 20, ours: 10 }]);
    expect(alerts.map((a) => [a.level, a.code])).toEqual([['critical', 'POSITION_MISMATCH']]);
    expect(alerts[0]!.message).toContain('INTRADAY: broker 20, tarang 10');
    expect(risk.dryRun(buy(5))).toMatchObject({ code: 'INSTRUMENT_HELD' });
    // Reducing passes (against both views); other instruments trade on.
    expect(risk.dryRun(sell(10))).toBeNull();
    expect(risk.dryRun({ ...buy(5), instrument: 'NFO_35001', qty: 75 })?.code).not.toBe('INSTRUMENT_HELD');
    expect(risk.dryRun({ kind: 'exit', id: 'x', strategyId: 's1', instrument: 'NSE_2885' })).toMatchObject({ code: 'INSTRUMENT_HELD' });
    // Still differing at the next check: no second alert.
    clock.advanceTo(clock.now() + 10_000);
    await Promise.resolve();
    expect(rereads()).toBe(1);
    m.onCheck([{ instrument: 'NSE_2885', product: 'INTRADAY', venue: 20, ours: 10 }]);
    expect(alerts).toHaveLength(1);
    m.onCheck([]);
    expect(alerts.map((a) => [a.level, a.code])).toEqual([['critical', 'POSITION_MISMATCH'], ['info', 'POSITION_MISMATCH_RESOLVED']]);
    expect(risk.dryRun(buy(5))).toBeNull();
    expect(m.instruments()).toEqual([]);
  });

  it('halts trading when configured, and lifts only the halt it caused', () => {
    const { m, risk } = setup('halt');
    m.onCheck([{ instrument: 'NSE_2885', product: 'CNC', venue: 0, ours: 5 }]);
    expect(risk.tradingState()).toBe('halted');
    m.onCheck([]);
    expect(risk.tradingState()).toBe('active');
    m.onCheck([{ instrument: 'NSE_2885', product: 'CNC', venue: 0, ours: 5 }]);
    risk.tripKillSwitch('test');
    m.onCheck([]);
    expect(risk.tradingState()).toBe('halted');
  });
});
