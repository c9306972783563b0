import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { InstrumentTable, type Instrument } from '../../../../src/core/instruments.js';
import { istDateTime } from '../../../../src/core/time.js';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { MatchingEngine, indianSettlementCharges, noCharges, type SimEvent } from '../../../../src/adapters/simulator/matching/index.js';
import { NIFTY_CE, NIFTY_FUT, OPEN, RELIANCE } from './fixtures.js';

const NIFTY_PE: Instrument = { ...NIFTY_CE, id: 'NFO_50002', securityId: '50002', tradingSymbol: 'NIFTY25NOV23000PE', strike: 2_300_000, optionType: 'PE' };
const ITM_PE: Instrument = { ...NIFTY_CE, id: 'NFO_50003', securityId: '50003', tradingSymbol: 'NIFTY25NOV24500PE', strike: 2_450_000, optionType: 'PE' };
const EXPIRY = NIFTY_CE.expiry!; // 2026-11-26, a Thursday
const S = 2_431_235; // the index at the expiry close: 24,312.35
const calendar = nseCalendar();

function setup(underlyingClose?: (c: Instrument) => number | undefined) {
  const clock = new VirtualClock(OPEN);
  const engine = new MatchingEngine({
    instruments: new InstrumentTable([RELIANCE, NIFTY_FUT, NIFTY_CE, NIFTY_PE, ITM_PE]),
    clock,
    accountOptions: { openingBalance: 100_000_000, charges: noCharges, settlementCharges: indianSettlementCharges() },
    ...(underlyingClose ? { underlyingClose } : {}),
  });
  const events: SimEvent[] = [];
  engine.subscribe((e) => events.push(e));
  const tick = (instrument: string, ltp: number, extra: Record<string, number> = {}): void => {
    clock.advanceBy(1000);
    engine.onMarket({ instrument, ts: clock.now(), ltp, ...extra });
  };
  /** Closes today's session and opens the next one; returns its open. */
  const nextSession = (): number => {
    const s = calendar.currentOrNextSession(clock.now());
    clock.advanceTo(s.close);
    engine.expireSession();
    const next = calendar.currentOrNextSession(s.close + 1);
    clock.advanceTo(next.open);
    engine.openSession();
    return next.open;
  };
  return { clock, engine, events, tick, nextSession };
}

/** Long 75 CE 24000 at 300.00, short 75 PE 23000 at 40.00, long 75 futures at 24,200.00, all Friday 2026-11-20. */
function openBook(h: ReturnType<typeof setup>): void {
  h.tick(NIFTY_CE.id, 30_000, { bid: 29_995, ask: 30_000, askQty: 1000 });
  h.engine.placeOrder({ instrument: NIFTY_CE.id, side: 'BUY', qty: 75, orderType: 'LIMIT', limitPrice: 30_000, validity: 'DAY', product: 'MARGIN' });
  h.tick(NIFTY_PE.id, 4_000, { bid: 4_000, ask: 4_005, bidQty: 1000 });
  h.engine.placeOrder({ instrument: NIFTY_PE.id, side: 'SELL', qty: 75, orderType: 'LIMIT', limitPrice: 4_000, validity: 'DAY', product: 'MARGIN' });
  h.tick(NIFTY_FUT.id, 2_420_000, { bid: 2_419_990, ask: 2_420_000, askQty: 1000 });
  h.engine.placeOrder({ instrument: NIFTY_FUT.id, side: 'BUY', qty: 75, orderType: 'LIMIT', limitPrice: 2_420_000, validity: 'DAY', product: 'MARGIN' });
  expect(h.engine.trades().map((t) => [t.instrument, t.side, t.qty, t.price])).toEqual([
    [NIFTY_CE.id, 'BUY', 75, 30_000],
    [NIFTY_PE.id, 'SELL', 75, 4_000],
    [NIFTY_FUT.id, 'BUY', 75, 2_420_000],
  ]);
}

/** Plays sessions until the one after the expiry date has opened; returns its open. */
function throughExpiry(h: ReturnType<typeof setup>, onExpiryDay?: () => void): number {
  for (;;) {
    const open = h.nextSession();
    const date = new Date(open + 5.5 * 3_600_000).toISOString().slice(0, 10);
    if (date === EXPIRY) onExpiryDay?.();
    if (date > EXPIRY) return open;
  }
}

describe('cash settlement at expiry', () => {
  it('settles a long ITM call, a short OTM put and a long future at the first session after expiry, off the underlying at the expiry close', () => {
    const asked: string[] = [];
    const h = setup((c) => {
      asked.push(`${c.id}@${new Date(h.clock.now()).toISOString()}`);
      return S;
    });
    openBook(h);
    const usedBefore = h.engine.account.usedMargin();
    expect(usedBefore).toBeGreaterThan(0);
    let positionsOnExpiryDay: number | undefined;
    const open = throughExpiry(h, () => {
      // Expiry day's trading: the contracts still trade and are not settled yet.
      h.tick(NIFTY_FUT.id, 2_431_000);
      h.tick(NIFTY_CE.id, 31_000);
      positionsOnExpiryDay = h.engine.account.openPositions();
    });
    expect(positionsOnExpiryDay).toBe(3);
    // S was asked once per contract, at the expiry session's close.
    const close = new Date(istDateTime(EXPIRY, '15:30')).toISOString();
    expect(asked.sort()).toEqual([`${NIFTY_CE.id}@${close}`, `${NIFTY_FUT.id}@${close}`, `${NIFTY_PE.id}@${close}`].sort());

    // CE: 24,312.35 - 24,000 = 312.35 a unit; (312.35 - 300) x 75 = 926.25. STT on exercise: 0.125% of 312.35 x 75 = 29.2828 -> 29.28.
    // PE: OTM, settles at 0: the 40.00 premium is kept, 3,000.00. Future: (24,312.35 - 24,200) x 75 = 8,426.25.
    expect(h.engine.settlements()).toEqual([
      { instrument: NIFTY_CE.id, securityId: '50001', tradingSymbol: NIFTY_CE.tradingSymbol, product: 'MARGIN', expiry: EXPIRY, side: 'SELL', qty: 75, settlementPrice: 31_235, underlyingPrice: S, basis: 'underlying-close', realizedPnl: 92_625, charges: 2_928, ts: open },
      { instrument: NIFTY_PE.id, securityId: '50002', tradingSymbol: NIFTY_PE.tradingSymbol, product: 'MARGIN', expiry: EXPIRY, side: 'BUY', qty: 75, settlementPrice: 0, underlyingPrice: S, basis: 'underlying-close', realizedPnl: 300_000, charges: 0, ts: open },
      { instrument: NIFTY_FUT.id, securityId: '43219', tradingSymbol: NIFTY_FUT.tradingSymbol, product: 'MARGIN', expiry: EXPIRY, side: 'SELL', qty: 75, settlementPrice: S, underlyingPrice: S, basis: 'underlying-close', realizedPnl: 842_625, charges: 0, ts: open },
    ]);
    const positions = h.engine.account.positions();
    expect(positions.map((p) => [p.instrument, p.netQty, p.realizedPnl, p.dayBuyQty, p.daySellQty, p.daySellValue, p.unrealizedPnl])).toEqual([
      [NIFTY_CE.id, 0, 92_625, 0, 75, 75 * 31_235, 0],
      [NIFTY_PE.id, 0, 300_000, 75, 0, 0, 0],
      [NIFTY_FUT.id, 0, 842_625, 0, 75, 75 * S, 0],
    ]);
    const f = h.engine.account.funds();
    expect(f.realizedPnl).toBe(92_625 + 300_000 + 842_625);
    expect(f.fnoCharges).toBe(2_928);
    expect(f.usedMargin).toBe(0);
    expect(f.sodBalance).toBe(100_000_000);
    expect(f.available).toBe(100_000_000 + 1_235_250 - 2_928);
    expect(h.engine.account.openPositions()).toBe(0);
    // A position event for each, at the open, flat.
    const settledEvents = h.events.filter((e) => e.type === 'position' && e.ts === open);
    expect(settledEvents.map((e) => (e.type === 'position' ? [e.position.instrument, e.position.netQty] : []))).toEqual([
      [NIFTY_CE.id, 0],
      [NIFTY_PE.id, 0],
      [NIFTY_FUT.id, 0],
    ]);
    // Settlement is not an exchange trade: the trade book stays empty; the contracts' books are gone.
    expect(h.engine.trades()).toEqual([]);
    expect(h.engine.lastPrice(NIFTY_FUT.id)).toBeUndefined();
    // The next day: nothing left, nothing settled again.
    h.nextSession();
    expect(h.engine.account.positions()).toEqual([]);
    expect(h.engine.settlements()).toEqual([]);
    expect(h.engine.account.funds().sodBalance).toBe(100_000_000 + 1_235_250 - 2_928);
  });

  it('settles a contract at its own last price when the underlying is not known', () => {
    const h = setup();
    openBook(h);
    throughExpiry(h, () => {
      h.tick(NIFTY_FUT.id, 2_431_000);
      h.tick(NIFTY_CE.id, 31_000);
    });
    const byId = new Map(h.engine.settlements().map((s) => [s.instrument, s]));
    expect(byId.get(NIFTY_FUT.id)).toMatchObject({ settlementPrice: 2_431_000, basis: 'contract-last-price', realizedPnl: 75 * 11_000 });
    expect(byId.get(NIFTY_FUT.id)!.underlyingPrice).toBeUndefined();
    expect(byId.get(NIFTY_CE.id)).toMatchObject({ settlementPrice: 31_000, realizedPnl: 75 * 1_000, charges: Math.round(75 * 31_000 * 0.00125) });
    // The put was last seen at its sale price.
    expect(byId.get(NIFTY_PE.id)).toMatchObject({ settlementPrice: 4_000, realizedPnl: 0 });
    expect(h.engine.account.funds().usedMargin).toBe(0);
  });

  it('leaves a position flattened before the expiry close alone, and expires orders still working in the contract', () => {
    const h = setup(() => S);
    openBook(h);
    // A smart order (exit at 25,000 with a stop) lives across sessions: it can never fill after expiry.
    const smart = h.engine.placeSmartOrder({ instrument: NIFTY_FUT.id, side: 'SELL', qty: 75, entryType: 'LIMIT', limitPrice: 2_500_000, stopLoss: { triggerPrice: 2_550_000 }, validity: 'DAY', product: 'MARGIN' });
    throughExpiry(h, () => {
      h.tick(NIFTY_CE.id, 31_000, { bid: 31_000, ask: 31_005, bidQty: 1000 });
      h.engine.placeOrder({ instrument: NIFTY_CE.id, side: 'SELL', qty: 75, orderType: 'LIMIT', limitPrice: 31_000, validity: 'DAY', product: 'MARGIN' });
    });
    expect(h.engine.settlements().map((s) => s.instrument)).toEqual([NIFTY_PE.id, NIFTY_FUT.id]);
    const entry = h.engine.getOrder(smart.orderId)!;
    expect(entry.venueStatus).toBe('EXPIRED');
    expect(h.engine.getSmartOrder(smart.orderId)!.status).toBe('EXPIRED');
    expect(h.engine.account.funds().usedMargin).toBe(0);
  });

  it('settles a put in the money at K - S (STT on the holder only) and a short call in the money at S - K (no STT)', () => {
    const h = setup(() => S);
    h.tick(ITM_PE.id, 20_000, { bid: 19_995, ask: 20_000, askQty: 1000 });
    h.engine.placeOrder({ instrument: ITM_PE.id, side: 'BUY', qty: 150, orderType: 'LIMIT', limitPrice: 20_000, validity: 'DAY', product: 'MARGIN' });
    h.tick(NIFTY_CE.id, 30_000, { bid: 30_000, ask: 30_005, bidQty: 1000 });
    h.engine.placeOrder({ instrument: NIFTY_CE.id, side: 'SELL', qty: 75, orderType: 'LIMIT', limitPrice: 30_000, validity: 'DAY', product: 'MARGIN' });
    throughExpiry(h);
    // PE 24,500: 24,500 - 24,312.35 = 187.65 a unit; (187.65 - 200) x 150 = -1,852.50; STT 0.125% of 187.65 x 150 = 35.18.
    // Short CE 24,000: assigned at 312.35; (300 - 312.35) x 75 = -926.25.
    expect(h.engine.settlements().map((x) => [x.instrument, x.side, x.settlementPrice, x.realizedPnl, x.charges])).toEqual([
      [ITM_PE.id, 'SELL', 18_765, -185_250, 3_518],
      [NIFTY_CE.id, 'BUY', 31_235, -92_625, 0],
    ]);
    const f = h.engine.account.funds();
    expect(f.usedMargin).toBe(0);
    expect(f.available).toBe(100_000_000 - 185_250 - 92_625 - 3_518);
  });
});

