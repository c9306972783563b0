/**
 * Intraday square-off in paper mode (issue 16), a daemon against the simulator over real HTTP and
 * WebSocket, started late in the session: an INTRADAY position is never held overnight. With the
 * engine's own exit off, the broker squares it off at 15:20 (its orders in the broker's book, the
 * fill booked to the strategy, a square-off event); by default the engine exits first, at 15:15.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event, SquareOffEvent } from '../../src/core/events.js';
import { formatIst, istDateTime } from '../../src/core/time.js';
import { SQUARE_OFF_REMARKS } from '../../src/risk/rules/square-off.js';
import { engineOf, seenOrders, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

let h: PaperHarness;
beforeEach(async () => {
  h = await startPaperHarness({ speed: 60, start: istDateTime('2026-11-20', '15:08') });
});
afterEach(async () => {
  await h.close();
});

describe('intraday square-off in paper trading', () => {
  it('with the engine exit off, the broker squares the INTRADAY position off at 15:20 and the daemon books it', async () => {
    const events: Event[] = [];
    const d = await h.daemon({ n: 3, config: { shutdown: { onStop: 'none', atSessionEnd: 'none', intradayExitAt: 'off' } }, observe: (e) => void events.push(e) });
    const engine = engineOf(d);
    await until(() => seenOrders(d).filled === 3 && engine.portfolio.netQty(h.instrument) === 3, 'three INTRADAY buys filled and booked');
    await until(() => events.some((e) => e.type === 'square-off'), 'the broker square-off', 60_000);
    await until(() => engine.portfolio.netQty(h.instrument) === 0, 'the square-off booked');
    const sq = events.find((e): e is SquareOffEvent => e.type === 'square-off')!;
    expect(sq).toMatchObject({ instrument: h.instrument, side: 'SELL', qty: 3, product: 'INTRADAY', strategies: [{ strategyId: 'buyer', qty: 3 }], unowned: 0 });
    expect(formatIst(sq.ts).slice(11, 16)).toBe('15:20');
    const view = await h.brokerView();
    const brokers = view.orders.filter((o) => o.tag === SQUARE_OFF_REMARKS);
    expect(brokers).toHaveLength(1);
    expect(brokers[0]).toMatchObject({ side: 'SELL', qty: 3, status: 'FILLED' });
    expect(view.trades.filter((t) => t.instrument === h.instrument).reduce((n, t) => n + (t.side === 'BUY' ? t.qty : -t.qty), 0)).toBe(0);
    expect(events.some((e) => e.type === 'alert' && e.code === 'BROKER_SQUARE_OFF')).toBe(true);
  }, 120_000);

  it('by default the engine exits the INTRADAY position itself at 15:15, before the broker would', async () => {
    const events: Event[] = [];
    const d = await h.daemon({ n: 2, observe: (e) => void events.push(e) });
    const engine = engineOf(d);
    await until(() => seenOrders(d).filled === 2, 'two INTRADAY buys filled');
    await until(() => engine.portfolio.netQty(h.instrument) === 0, 'the engine exit', 60_000);
    const exit = events.find((e) => e.type === 'intent' && e.intent.kind === 'exit');
    expect(exit && formatIst(exit.ts).slice(11, 16)).toBe('15:15');
    await h.elapse(6 * 60_000);
    const view = await h.brokerView();
    expect(view.orders.some((o) => o.tag === SQUARE_OFF_REMARKS)).toBe(false);
    expect(events.some((e) => e.type === 'square-off')).toBe(false);
    expect(engine.portfolio.netQty(h.instrument)).toBe(0);
  }, 120_000);
});
