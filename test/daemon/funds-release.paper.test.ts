/**
 * #13.3 end to end: a paper strategy that places and cancels limit orders keeps its funds. Before
 * the fix each order's reservation outlived its cancel; with ten lakh and orders of about 1.3 lakh
 * the strategy was locked out ("needs margin ..., available ...") after the eighth cycle.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeniedEvent, Event } from '../../src/core/events.js';
import { BUY_N, engineOf, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

const PLACE_CANCEL = join(BUY_N, '..', 'place-cancel.ts');
const CYCLES = 40;

describe('a paper strategy that places and cancels limit orders', () => {
  let h: PaperHarness;
  beforeAll(async () => {
    h = await startPaperHarness({ speed: 50 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it(`keeps its funds over ${CYCLES} place/cancel cycles: every order reaches the broker, none is denied, the funds end where they started`, async () => {
    const denials: DeniedEvent[] = [];
    const d = await h.daemon({
      n: 1,
      config: { strategies: [{ id: 'pc', strategy: PLACE_CANCEL, params: { instrument: h.instrument, cycles: CYCLES, qty: 100 } }] },
      observe: (e: Event) => void (e.type === 'denied' && denials.push(e)),
    });
    const engine = engineOf(d);
    await until(async () => {
      const orders = (await h.brokerView()).orders;
      return orders.length === CYCLES && orders.every((o) => o.status === 'CANCELLED');
    }, `${CYCLES} orders placed and cancelled at the broker`, 60_000);
    const view = await h.brokerView();
    expect(new Set(view.orders.map((o) => o.tag)).size).toBe(CYCLES);
    expect(view.trades).toEqual([]);
    expect(denials.map((x) => `${x.code}: ${x.reason}`)).toEqual([]);
    await until(() => engine.riskView().availableFunds !== undefined, 'the engine to know its funds');
    const available = engine.riskView().availableFunds!;
    // Nothing is working and nothing filled: what risk may spend is the account's whole ten lakh
    // (the paper capital the simulator's account starts with).
    expect(available).toBe(10_00_000_00);
    await d.stop('test done', 'none');
  }, 90_000);
});
