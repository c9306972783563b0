/**
 * The engine queues an intent on the bus until the event being handled has been dispatched, so a
 * strategy that sells on a candle (or on a chain) and then sees the tick queued behind it, at the
 * same instant, cannot find its orders yet. short-straddle must not take that for a denial (it
 * used to mark both legs failed and never buy them back); from a later instant it must.
 */
import { describe, expect, it } from 'vitest';
import type { IntentDraft, StrategyContext } from '../../../src/strategies/strategy.js';
import { InstrumentTable } from '../../../src/core/instruments.js';
import { silentLogger } from '../../../src/core/log.js';
import type { JsonValue } from '../../../src/core/store.js';
import { shortStraddle, shortStraddleParams } from '../../../src/strategies/short-straddle/index.js';
import { type OptionStrategy, type OptionStrategyContext } from '../../../src/strategies/options/index.js';
import { DAY, EXPIRIES, NIFTY, OPTIONS, chain } from './fixtures.js';
import { istDateTime } from '../../../src/core/time.js';

function fakeContext(now: { t: number }, instruments: InstrumentTable, submitted: IntentDraft[]): OptionStrategyContext {
  const state: { [key: string]: JsonValue } = {};
  const c = chain({ ts: istDateTime(DAY, '09:20'), spot: 2171000, ltp: { '21700CE': 12000, '21700PE': 10000 } });
  let seq = 0;
  const submit = (d: IntentDraft): string => {
    submitted.push(d);
    return `t${++seq}`;
  };
  const ctx: StrategyContext = {
    id: 'straddle-1',
    clock: { now: () => now.t },
    portfolio: { netQty: () => 0, position: () => undefined, positions: () => [], pnl: () => 0, lastPrice: () => undefined },
    // Nothing known yet: the intents are still on the bus.
    orders: { get: () => undefined, open: () => [], settling: () => [] },
    instruments,
    log: silentLogger(),
    state,
    warmingUp: false,
    submit,
    buy: (i, q) => submit({ kind: 'place', instrument: i, side: 'BUY', qty: q, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' }),
    sell: (i, q) => submit({ kind: 'place', instrument: i, side: 'SELL', qty: q, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' }),
    exit: (i) => submit({ kind: 'exit', instrument: i }),
    cancel: (tag) => submit({ kind: 'cancel', target: tag }),
  };
  return Object.assign(Object.create(ctx) as StrategyContext, { options: { expiries: () => EXPIRIES, chain: () => c } }) as OptionStrategyContext;
}

describe('short-straddle within one instant', () => {
  it('does not mistake its own queued sales for denials; a sale still unknown at a later instant is one', () => {
    const instruments = new InstrumentTable([NIFTY, ...OPTIONS]);
    const s = shortStraddle.create(shortStraddleParams.parse({ entryTime: '09:20' }), { id: 'straddle-1', instruments }) as OptionStrategy;
    const now = { t: istDateTime(DAY, '09:20') };
    const submitted: IntentDraft[] = [];
    const ctx = fakeContext(now, instruments, submitted);
    s.onStart?.(ctx);
    const tick = { type: 'tick', ts: now.t, instrument: NIFTY.id, ltp: 2171000 } as const;
    s.onCandle?.({ type: 'candle', ts: now.t, instrument: NIFTY.id, interval: '1minute', start: now.t - 60_000, open: 2171000, high: 2171000, low: 2171000, close: 2171000, volume: 0 }, ctx);
    expect(submitted.map((d) => [d.kind, d.kind === 'place' ? d.side : ''])).toEqual([['place', 'SELL'], ['place', 'SELL']]);
    // The tick queued behind the candle, same instant: no unwinding.
    s.onTick?.(tick as never, ctx);
    expect(submitted).toHaveLength(2);
    expect(ctx.state['straddle']).toMatchObject({ phase: 'entered', legs: [{ status: 'entering' }, { status: 'entering' }] });
    // A second later the sales are still unknown: they were denied; nothing was sold, nothing to buy back.
    now.t += 1000;
    s.onTick?.({ ...tick, ts: now.t } as never, ctx);
    expect(submitted).toHaveLength(2);
    expect((ctx.state['straddle'] as { phase: string; legs: Array<{ status: string }> })).toMatchObject({ phase: 'done', legs: [{ status: 'failed' }, { status: 'failed' }] });
  });
});
