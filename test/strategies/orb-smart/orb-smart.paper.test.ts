/**
 * orb-smart in paper trading: the daemon (engine, risk, execution, broker adapter) against the
 * simulator over loopback HTTP/WebSocket, on the simulator's virtual clock. The simulator is the
 * venue of record, so the assertions look at its order book.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DeniedEvent, IntentEvent } from '../../../src/core/events.js';
import type { SmartIntent } from '../../../src/core/intents.js';
import { startPaperDaemon, type PaperDaemon } from './paper-daemon.js';

const DAY = '2026-11-19';
const HDFCBANK = 'NSE_1333';
const base = { instrument: HDFCBANK, qty: 10, rangeMinutes: 5, entryBufferTicks: 0, lastEntryTime: '09:40', exitTime: '09:45' };
const ALL_BUT_LEG_BOUNDS = ['tradingState', 'instrument', 'lotSize', 'tickSize', 'circuit', 'modificationCap', 'maxOrderValue', 'maxPosition', 'maxOpenOrders', 'orderRate', 'funds', 'dailyLoss'] as const;

let paper: PaperDaemon | undefined;
afterEach(async () => {
  await paper?.close();
  paper = undefined;
});

const smartIntents = (p: PaperDaemon): SmartIntent[] =>
  p.events.filter((e): e is IntentEvent => e.type === 'intent').map((e) => e.intent).filter((i): i is SmartIntent => i.kind === 'smart');

describe('orb-smart paper trading against the simulator', () => {
  it('places the breakout as a TRIGGER smart order tagged in remarks, with its legs, and the entry fills at the simulator', async () => {
    // Targets here are far enough not to fill during a test, yet inside the circuit band (HDFCBANK
    // ~850, band +/-20%): the daemon feeds the bands to risk, which denies a leg beyond them.
    paper = await startPaperDaemon({ day: DAY, strategies: [{ id: 'orb', strategy: 'orb-smart', params: { ...base, targetMode: 'points', targetValue: 100 } }] });
    await paper.run(6 * 60_000);
    expect(smartIntents(paper)).toEqual([]);
    paper.jump(HDFCBANK, 1.02);
    await paper.run(3 * 60_000);
    const [intent] = smartIntents(paper);
    expect(intent).toMatchObject({ side: 'BUY', entryType: 'TRIGGER', qty: 10, product: 'INTRADAY' });
    expect(intent!.trailingStep).toBeUndefined();
    const orders = paper.sim.venue.orders().filter((o) => o.remarks === intent!.id);
    const entry = orders.find((o) => o.leg === 'entry');
    const sl = orders.find((o) => o.leg === 'stopLoss');
    const tg = orders.find((o) => o.leg === 'target');
    expect(entry).toMatchObject({ status: 'FILLED', filledQty: 10, triggerPrice: intent!.triggerPrice });
    expect(sl).toMatchObject({ status: 'TRIGGER_PENDING', side: 'SELL', triggerPrice: intent!.stopLoss!.triggerPrice });
    expect(tg).toMatchObject({ status: 'TRIGGER_PENDING', side: 'SELL', triggerPrice: intent!.triggerPrice! + 10_000 });
    expect(sl!.triggerPrice!).toBeLessThan(entry!.triggerPrice!);
    expect(paper.sim.venue.positions().find((p) => p.instrument === HDFCBANK)?.netQty).toBe(10);
  }, 30_000);

  it('the risk layer denies a leg on the wrong side with the broker message; nothing reaches the simulator', async () => {
    paper = await startPaperDaemon({ day: DAY, strategies: [{ id: 'orb', strategy: 'orb-smart', params: { ...base, targetMode: 'range', targetValue: 0.1 } }] });
    await paper.run(6 * 60_000);
    paper.jump(HDFCBANK, 1.03);
    await paper.run(2 * 60_000);
    const denied = paper.events.filter((e): e is DeniedEvent => e.type === 'denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ code: 'SMART_LEG_BOUND', reason: expect.stringMatching(/^Target trigger price should be greater than \d+\.\d{2}$/) });
    expect(paper.sim.venue.orders()).toEqual([]);
  }, 30_000);

  it('with the leg-bound check off, the simulator refuses the same order with the same message', async () => {
    paper = await startPaperDaemon({
      day: DAY,
      risk: { checks: [...ALL_BUT_LEG_BOUNDS] },
      strategies: [{ id: 'orb', strategy: 'orb-smart', params: { ...base, targetMode: 'range', targetValue: 0.1 } }],
    });
    await paper.run(6 * 60_000);
    paper.jump(HDFCBANK, 1.03);
    await paper.run(2 * 60_000);
    const [intent] = smartIntents(paper);
    const entry = intent!.triggerPrice!;
    const refusal = paper.events.find((e): e is DeniedEvent => e.type === 'denied');
    const rejected = paper.events.find((e) => e.type === 'order' && e.order.tag === intent!.id && e.order.status === 'REJECTED');
    const reason = refusal?.reason ?? (rejected?.type === 'order' ? rejected.order.reason : undefined);
    expect(reason).toContain(`Target trigger price should be greater than ${(entry / 100).toFixed(2)}`);
    expect(paper.sim.venue.orders()).toEqual([]);
  }, 30_000);

  // Regression guard: the legs' updates carry the parent's `remarks` (spec 2.7) and may reach the
  // engine before the placement answer; each leg must still be booked as its own order, so the
  // strategy has a working stop-loss leg to trail and the engine's position equals the simulator's.
  it('trails the stop-loss leg at the simulator: it moves up with the price, holds when the price turns, and is hit', async () => {
    paper = await startPaperDaemon({ day: DAY, strategies: [{ id: 'orb', strategy: 'orb-smart', params: { ...base, direction: 'long', targetMode: 'points', targetValue: 100, trailingStep: 1, exitTime: '09:50' } }] });
    await paper.run(6 * 60_000);
    paper.jump(HDFCBANK, 1.02);
    await paper.run(3 * 60_000);
    const [intent] = smartIntents(paper);
    const legOf = () => paper!.sim.venue.orders().find((o) => o.remarks === intent!.id && o.leg === 'stopLoss')!;
    const initial = legOf().triggerPrice!;
    paper.jump(HDFCBANK, 1.01);
    await paper.run(3 * 60_000);
    const moved = legOf();
    expect(moved.modifications).toBeGreaterThan(0);
    expect(moved.triggerPrice!).toBeGreaterThan(initial);
    paper.jump(HDFCBANK, 0.997);
    await paper.run(2 * 60_000);
    expect(legOf().triggerPrice).toBe(moved.triggerPrice);
    paper.jump(HDFCBANK, 0.97);
    await paper.run(2 * 60_000);
    expect(legOf().status).toBe('FILLED');
    expect(paper.sim.venue.positions().find((p) => p.instrument === HDFCBANK)?.netQty ?? 0).toBe(0);
  }, 30_000);
});
