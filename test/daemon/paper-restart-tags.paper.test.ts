/**
 * #13.4: a paper session restarted against the same simulator on the same day with the memory
 * store (its run counter forgotten) must not mint the earlier run's tags again. Before the fix the
 * second run started at `tr1-1`, the earlier `tr1-1` was adopted from the book, and the new intents
 * were dropped ("order tr1-1 is already tracked") with no order and no denial.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeniedEvent, Event } from '../../src/core/events.js';
import { compareWithBroker, seenOrders, startPaperHarness, until, type PaperHarness } from './support/paper-harness.js';

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
    expect(firstTags).toEqual(expect.arrayContaining(['tr1-1', 'tr1-2', 'tr1-3']));

    const denials: DeniedEvent[] = [];
    // A fresh memory store: the run counter starts over, as after a process restart.
    const second = await h.daemon({ n: 3, observe: (e: Event) => void (e.type === 'denied' && denials.push(e)) });
    await until(() => seenOrders(second).filled >= 6 && seenOrders(second).open === 0, 'the second run\'s three buys filled beside the adopted three');
    await second.stop('second run done', 'none');

    const view = await h.brokerView();
    const tags = view.orders.map((o) => o.tag ?? '');
    expect(tags).toHaveLength(6);
    expect(new Set(tags).size).toBe(6);
    const secondRun = tags.filter((t) => !firstTags.includes(t));
    expect(secondRun).toHaveLength(3);
    for (const t of secondRun) expect(t).toMatch(/^tr2-[1-3]$/);
    expect(denials).toEqual([]);
    expect(compareWithBroker(second, view, h.instrument).problems).toEqual([]);
  });
});
