import { describe, expect, it } from 'vitest';
import type { CandleEvent } from '../../../src/core/events.js';
import type { Intent, SmartIntent } from '../../../src/core/intents.js';
import type { JsonValue } from '../../../src/core/store.js';
import { ALL_CHECKS } from '../../../src/risk/config.js';
import { checkSmartLegBounds } from '../../../src/risk/rules/smart-leg-bounds.js';
import { orbSmart, orbSmartParams, planEntry, type OrbSmartParamsInput } from '../../../src/strategies/orb-smart/index.js';
import { EngineHarness, type HarnessOptions } from './engine-harness.js';
import { HDFCBANK, flat, minuteCandles, type Ohlc } from './candles.js';
import { istDateTime } from '../../../src/core/time.js';

const DAY = '2023-04-03';
const I = HDFCBANK.id;

/** 09:15-09:29: high 1610.00, low 1600.00. */
const RANGE: Ohlc[] = [[1605, 1610, 1601, 1606], ...flat(1605, 13), [1605, 1606, 1600, 1604]];

/** orb-smart in the engine a backtest runs, over the backtest venue (engine-harness.ts). */
function harness(params: Partial<OrbSmartParamsInput> = {}, o: Partial<HarnessOptions> = {}): Promise<EngineHarness> {
  const p = orbSmartParams.parse({ instrument: I, qty: 10, ...params });
  const strategy = orbSmart.create(p, { id: 'orb-1', instruments: { get: () => HDFCBANK } });
  return EngineHarness.start(strategy, { instruments: [HDFCBANK], start: istDateTime(DAY, '09:15'), ...o }, 'orb-1');
}

function play(h: EngineHarness, candles: readonly CandleEvent[]): void {
  for (const c of candles) h.candle(c);
}

function smarts(h: EngineHarness): SmartIntent[] {
  return h.intents.filter((i): i is SmartIntent => i.kind === 'smart');
}

const kinds = (h: EngineHarness): string[] => h.intents.map((i: Intent) => i.kind);

describe('orb-smart parameters', () => {
  it('fills defaults and converts times', () => {
    const p = orbSmartParams.parse({ instrument: I, qty: 1 });
    expect(p).toMatchObject({ interval: '1minute', rangeMinutes: 15, direction: 'both', stopMode: 'range', targetMode: 'rr', targetValue: 2, trailingStep: 0 });
    expect(p.exitTime).toBe(15 * 60 + 10);
    expect(p.lastEntryTime).toBe(14 * 60 + 30);
  });

  it('rejects a range that is not a whole number of candles, naming the parameter', () => {
    const r = orbSmartParams.safeParse({ instrument: I, qty: 1, interval: '5minute', rangeMinutes: 12 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['rangeMinutes']);
    expect(r.error?.issues[0]?.message).toMatch(/multiple of the 5minute interval/);
  });

  it('rejects an exit time before the last entry time and a malformed time', () => {
    expect(orbSmartParams.safeParse({ instrument: I, qty: 1, lastEntryTime: '15:20' }).error?.issues[0]?.path).toEqual(['lastEntryTime']);
    expect(orbSmartParams.safeParse({ instrument: I, qty: 1, exitTime: '3pm' }).error?.issues[0]?.message).toMatch(/HH:MM/);
  });
});

describe('orb-smart entry plan', () => {
  const base = orbSmartParams.parse({ instrument: I, qty: 10 });
  const up = { side: 'BUY' as const, close: 161200, rangeHigh: 161000, rangeLow: 160000 };

  it('puts the trigger a tick beyond the close, the stop at the far side of the range and the target at 2R', () => {
    const { intent, entryPrice, risk } = planEntry(base, up, 5);
    expect(intent).toMatchObject({ kind: 'smart', side: 'BUY', entryType: 'TRIGGER', triggerPrice: 161205, stopLoss: { triggerPrice: 160000 }, target: { triggerPrice: 163615 }, validity: 'DAY', product: 'INTRADAY' });
    expect(intent.trailingStep).toBeUndefined();
    expect(entryPrice).toBe(161205);
    expect(risk).toBe(1205);
  });

  it('mirrors a SELL and rounds prices to the tick away from harm', () => {
    const p = orbSmartParams.parse({ instrument: I, qty: 10, stopMode: 'percent', stopValue: 0.33, targetMode: 'percent', targetValue: 0.77 });
    const { intent } = planEntry(p, { side: 'SELL', close: 159800, rangeHigh: 161000, rangeLow: 160000 }, 5);
    expect(intent.triggerPrice).toBe(159795);
    // 1597.95 x 1.0033 = 1603.22 -> up to 1603.25; 1597.95 x 0.9923 = 1585.65 -> up (towards the entry) 1585.65
    expect(intent.stopLoss?.triggerPrice).toBe(160325);
    expect(intent.target?.triggerPrice).toBe(158565);
  });

  it('measures legs from the trigger limit when the entry works as a limit, and sets the trailing step on the tick', () => {
    const p = orbSmartParams.parse({ instrument: I, qty: 10, entryLimitTicks: 4, stopMode: 'points', stopValue: 5, targetMode: 'points', targetValue: 10, trailingStep: 1.02 });
    const { intent, entryPrice, trailStep } = planEntry(p, up, 5);
    expect(intent.triggerLimitPrice).toBe(161225);
    expect(entryPrice).toBe(161225);
    expect(intent.stopLoss?.triggerPrice).toBe(160725);
    expect(intent.target?.triggerPrice).toBe(162225);
    // Spec 3.4: no trailing step on a TRIGGER parent; the strategy trails the leg itself.
    expect(intent.trailingStep).toBeUndefined();
    expect(trailStep).toBe(100);
  });

  it('a range-based target can fall behind a long breakout candle: the plan keeps it and spec 3.5 refuses it', () => {
    const p = orbSmartParams.parse({ instrument: I, qty: 10, targetMode: 'range', targetValue: 0.5 });
    const { intent, entryPrice } = planEntry(p, { ...up, close: 162000 }, 5);
    expect(intent.target?.triggerPrice).toBe(161500);
    expect(checkSmartLegBounds({ side: 'BUY', entryPrice, tgtTriggerPrice: intent.target?.triggerPrice })).toBe('Target trigger price should be greater than 1620.05');
  });
});

describe('orb-smart in the engine over the backtest venue', () => {
  it('sets the range from the first 15 minutes and enters on the first close above it; the target closes the trade', async () => {
    const h = await harness();
    play(h, minuteCandles(I, DAY, '09:15', RANGE));
    expect(h.intents).toHaveLength(0);
    // 09:30 breaks out (close 1612), 09:31 takes the trigger, then a run to the target.
    play(h, minuteCandles(I, DAY, '09:30', [[1609, 1612.5, 1609, 1612], [1612, 1613, 1611.5, 1612.8], [1613, 1625, 1612.5, 1624], [1624, 1637, 1623, 1636]]));
    const [entry] = smarts(h);
    expect(entry).toMatchObject({ side: 'BUY', triggerPrice: 161205, stopLoss: { triggerPrice: 160000 }, target: { triggerPrice: 163615 } });
    expect(h.trades.map((t) => [t.side, t.qty, t.price])).toEqual([
      ['BUY', 10, 161205],
      ['SELL', 10, 163615],
    ]);
    expect(h.engine.account.netQty(I)).toBe(0);
    // OCO: the stop-loss leg was cancelled when the target filled.
    expect(h.order(`${entry!.id}:stopLoss`)?.status).toBe('CANCELLED');
  });

  it('the stop-loss leg closes a failed breakout, and the long side is not tried again that day', async () => {
    const h = await harness();
    play(h, minuteCandles(I, DAY, '09:15', RANGE));
    play(h, minuteCandles(I, DAY, '09:30', [[1609, 1612.5, 1609, 1612], [1612, 1613, 1611.5, 1612.8], [1612, 1612.5, 1598, 1599], [1599, 1614, 1599, 1613]]));
    expect(h.trades.map((t) => [t.side, t.price])).toEqual([
      ['BUY', 161205],
      ['SELL', 160000],
    ]);
    // 09:32 closed below the range (a short breakout): a SELL was tried; 09:33 closed above again: no second long.
    expect(smarts(h).map((s) => s.side)).toEqual(['BUY', 'SELL']);
  });

  it('cancels an entry still waiting for its trigger when the range breaks the other way, and sells instead', async () => {
    const h = await harness({ entryBufferTicks: 100 });
    play(h, minuteCandles(I, DAY, '09:15', RANGE));
    play(h, minuteCandles(I, DAY, '09:30', [[1609, 1612.5, 1609, 1612], [1611, 1611.5, 1600, 1601], [1600.5, 1601, 1596, 1597]]));
    const [long, short] = smarts(h);
    expect(long?.side).toBe('BUY');
    expect(short).toMatchObject({ side: 'SELL', triggerPrice: 159200, stopLoss: { triggerPrice: 161000 } });
    expect(h.order(long!.id)?.status).toBe('CANCELLED');
    expect(h.intents.find((i) => i.kind === 'cancel')).toMatchObject({ target: long!.id });
  });

  it('flattens at the exit time', async () => {
    const h = await harness({ exitTime: '09:40', lastEntryTime: '09:35' });
    play(h, minuteCandles(I, DAY, '09:15', RANGE));
    play(h, minuteCandles(I, DAY, '09:30', [[1609, 1612.5, 1609, 1612], [1612, 1613, 1611.5, 1612.8], ...flat(1615, 8)]));
    expect(h.engine.account.netQty(I)).toBe(10);
    // The legs are cancelled one by one (they would outlive the session), then the exit.
    expect(kinds(h)).toEqual(['smart', 'cancel', 'cancel', 'exit']);
    // The exit is a MARKET order at the next candle's open.
    play(h, minuteCandles(I, DAY, '09:40', [[1614, 1615, 1613, 1614]]));
    expect(h.engine.account.netQty(I)).toBe(0);
    expect(h.trades.at(-1)).toMatchObject({ side: 'SELL', qty: 10, price: 161400 });
    expect(h.engine.workingOrders(I)).toEqual([]);
  });

  it('does not trade a day whose opening range it did not see whole', async () => {
    const h = await harness();
    play(h, minuteCandles(I, DAY, '09:20', [...RANGE.slice(5), [1609, 1612.5, 1609, 1612], [1612, 1613, 1611.5, 1612.8]]));
    expect(h.intents).toEqual([]);
  });

  it('submits nothing while warming up', async () => {
    const h = await harness();
    h.warmingUp = true;
    play(h, minuteCandles(I, DAY, '09:15', [...RANGE, [1609, 1612.5, 1609, 1612]]));
    expect(h.intents).toEqual([]);
  });

  it('after a restart mid-session it neither re-enters a tried direction nor forgets its range', async () => {
    const first = await harness();
    play(first, minuteCandles(I, DAY, '09:15', RANGE));
    play(first, minuteCandles(I, DAY, '09:30', [[1609, 1612.5, 1609, 1612]]));
    expect(smarts(first)).toHaveLength(1);
    const saved = JSON.parse(JSON.stringify(first.ctx.state)) as { [key: string]: JsonValue };
    expect(saved['orb']).toMatchObject({ day: DAY, triedLong: true, triedShort: false, range: { status: 'complete', high: 161000, low: 160000 } });

    const second = await harness({}, { state: saved, start: istDateTime(DAY, '09:31') });
    play(second, minuteCandles(I, DAY, '09:31', [[1611, 1614, 1611, 1613], [1605, 1606, 1598, 1599]]));
    // No second long; the short breakout at 09:32 uses the range remembered from before the restart.
    expect(smarts(second).map((s) => [s.side, s.stopLoss?.triggerPrice])).toEqual([['SELL', 161000]]);
  });

  describe('smart-order leg bounds (spec 3.5)', () => {
    const big: Ohlc[] = [[1609, 1621, 1609, 1620]];
    const rangeTarget = { targetMode: 'range', targetValue: 0.5 } as const;
    const expected = 'Target trigger price should be greater than 1620.05';

    it('the risk layer denies the entry with the broker message, and the strategy stays flat without retrying', async () => {
      // The engine's risk check (smartLegBounds) applies the very rule the broker and simulator use (checkSmartLegBounds).
      const h = await harness(rangeTarget);
      play(h, minuteCandles(I, DAY, '09:15', RANGE));
      play(h, minuteCandles(I, DAY, '09:30', [...big, [1620, 1625, 1619, 1624], [1624, 1626, 1623, 1625]]));
      expect(h.denials).toEqual([expect.objectContaining({ by: 'risk', reason: expected })]);
      expect(smarts(h)).toHaveLength(1);
      expect(h.trades).toEqual([]);
    });

    it('without the risk layer the simulator refuses the same order with the same message', async () => {
      const h = await harness(rangeTarget, { risk: { checks: ALL_CHECKS.filter((c) => c !== 'smartLegBounds') } });
      play(h, minuteCandles(I, DAY, '09:15', RANGE));
      play(h, minuteCandles(I, DAY, '09:30', [...big, [1620, 1625, 1619, 1624]]));
      expect(h.denials).toEqual([expect.objectContaining({ by: 'venue', reason: expected })]);
      expect(h.engine.orders()).toEqual([]);
    });
  });

  it('trails its stop-loss leg by modify intents while the venue ignores is_tsl: the stop moves, then holds, then is hit', async () => {
    const h = await harness({ trailingStep: 1, targetMode: 'points', targetValue: 100 }, { tsl: 'off' });
    play(h, minuteCandles(I, DAY, '09:15', RANGE));
    play(h, minuteCandles(I, DAY, '09:30', [
      [1609, 1612.5, 1609, 1612],
      [1612, 1613, 1611.5, 1612.8], // entry at 1612.05
      [1613, 1620.5, 1612.5, 1620], // stop 1608.00
      [1620, 1620.8, 1619, 1620.5], // best 1620.80: still 8 whole steps, no modification
      [1620, 1630.2, 1619, 1629], // stop 1618.00
      [1629, 1629.5, 1621, 1622], // turns: holds
      [1622, 1623, 1610, 1611], // hit at 1618.00
    ]));
    const [entry] = smarts(h);
    expect(entry?.trailingStep).toBeUndefined();
    const mods = h.intents.filter((i) => i.kind === 'modify');
    expect(mods.map((m) => (m.kind === 'modify' ? [m.target, m.leg, m.triggerPrice] : []))).toEqual([
      [entry!.id, 'stopLoss', 160800],
      [entry!.id, 'stopLoss', 161800],
    ]);
    expect(h.trades.map((t) => [t.side, t.price])).toEqual([
      ['BUY', 161205],
      ['SELL', 161800],
    ]);
    expect(h.order(`${entry!.id}:stopLoss`)).toMatchObject({ status: 'FILLED', modifications: 2 });
  });

  it('keeps trailing when the engine forgets the filled entry order (a finished order is not a denied one)', async () => {
    const h = await harness({ trailingStep: 1, targetMode: 'points', targetValue: 100 }, { pruneFilled: true });
    play(h, minuteCandles(I, DAY, '09:15', RANGE));
    play(h, minuteCandles(I, DAY, '09:30', [[1609, 1612.5, 1609, 1612], [1612, 1613, 1611.5, 1612.8], [1613, 1620.5, 1612.5, 1620], [1620, 1630.2, 1619, 1629]]));
    expect(h.intents.filter((i) => i.kind === 'modify').map((m) => (m.kind === 'modify' ? m.triggerPrice : 0))).toEqual([160800, 161800]);
    // And no second long for the same day, although the entry order is no longer known.
    play(h, minuteCandles(I, DAY, '09:34', [[1629, 1640, 1628, 1639]]));
    expect(smarts(h)).toHaveLength(1);
  });

  it('spends at most trailBudget modifications on the leg, then lets the stop hold', async () => {
    const h = await harness({ trailingStep: 0.5, trailBudget: 3, targetMode: 'points', targetValue: 100 });
    play(h, minuteCandles(I, DAY, '09:15', RANGE));
    const climb: Ohlc[] = Array.from({ length: 8 }, (_, k) => [1613 + k, 1614 + k, 1612.5 + k, 1613.8 + k] as const);
    play(h, minuteCandles(I, DAY, '09:30', [[1609, 1612.5, 1609, 1612], [1612, 1613, 1611.5, 1612.8], ...climb]));
    expect(h.intents.filter((i) => i.kind === 'modify')).toHaveLength(3);
    expect(h.order(`${smarts(h)[0]!.id}:stopLoss`)?.modifications).toBe(3);
  });
});
