/**
 * #13.4: a paper session restarted against the same simulator on the same day with the memory
 * store (its run counter forgotten) must not mint the earlier run's tags again. Before the fix the
 * second run started at `tr1-1`, the earlier `tr1-1` was adopted from the book, and the new intents
 * were dropped ("order tr1-1 is already tracked") with no order and no denial.
 * #14: with the journal (tag -> strategy) gone too, the earlier orders are adopted under the
 * strategy whose key their tag carries in `remarks`, not as "unknown".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertEvent, DeniedEvent, Event } from '../../src/core/events.js';
import { strategyKey } from '../../src/adapters/execution/tags.js';
import { compareWithBroker, engineOf, seenOrders, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

describe('a paper session restarted with the memory store', () => {
  let h: PaperHarness;
  beforeAll(async () => {
    h = await startPaperHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('places every intent of the second run under new tags, beside the first run\'s orders', async () => {
    const first = await h.daemon({ n: 3 });
    await until(() => seenOrders(first).filled >= 3 && seenOrders(first).open === 0, 'the first run\'s three buys filled');
    await first.stop('first run done', 'none');
    const firstTags = (await h.brokerView()).orders.map((o) => o.tag);
    const key = strategyKey('buyer');
    expect(firstTags).toEqual(expect.arrayContaining([`tr1-1_${key}`, `tr1-2_${key}`, `tr1-3_${key}`]));

    const denials: DeniedEvent[] = [];
    // A fresh memory store: the run counter starts over, as after a process restart.
    const adoptions: AlertEvent[] = [];
    const second = await h.daemon({ n: 3, observe: (e: Event) => void (e.type === 'denied' ? denials.push(e) : e.type === 'alert' && e.code === 'ORDER_ADOPTED' && adoptions.push(e)) });
    // No journal in the fresh store: each earlier order is adopted by the key in its tag.
    for (const tag of firstTags) expect(engineOf(second).orders.get(tag!)?.strategyId).toBe('buyer');
    // One alert for the three, naming whose they are.
    expect(adoptions.map((a) => a.context)).toEqual([{ count: 3, byStrategy: { buyer: 3 } }]);
    expect(adoptions[0]!.message).toMatch(/^3 order\(s\) of ours .* not in the journal .*: buyer 3$/);
    await until(() => seenOrders(second).filled >= 6 && seenOrders(second).open === 0, 'the second run\'s three buys filled beside the adopted three');
    await second.stop('second run done', 'none');

    const view = await h.brokerView();
    const tags = view.orders.map((o) => o.tag ?? '');
    expect(tags).toHaveLength(6);
    expect(new Set(tags).size).toBe(6);
    const secondRun = tags.filter((t) => !firstTags.includes(t));
    expect(secondRun).toHaveLength(3);
    for (const t of secondRun) expect(t).toMatch(new RegExp(`^tr2-[1-3]_${key}$`));
    expect(denials).toEqual([]);
    expect(compareWithBroker(second, view, h.instrument).problems).toEqual([]);
    // The strategy's own book holds all six buys (the adopted three included).
    const buys = view.trades.reduce((n, t) => n + (t.side === 'BUY' ? t.qty : -t.qty), 0);
    expect(engineOf(second).portfolio.viewFor('buyer').netQty(h.instrument)).toBe(buys);
  });
});
