import { describe, expect, it } from 'vitest';
import { SegmentLimiter } from '../../../src/adapters/broker/segment-limiter.js';
import { VirtualClock } from '../../../src/core/clock.js';

describe('SegmentLimiter', () => {
  it('holds a slot from sending until a second after the answer, and queues a burst in order', async () => {
    const clock = new VirtualClock(1_000_000);
    const l = new SegmentLimiter('NSE FNO', 2, clock);
    const r1 = await l.acquire();
    const r2 = await l.acquire();
    const order: number[] = [];
    const third = l.acquire().then((r) => (order.push(3), r));
    const fourth = l.acquire().then((r) => (order.push(4), r));
    // Both slots are in flight: nothing frees them but an answer.
    await clock.advanceToAsync(1_010_000);
    expect(order).toEqual([]);
    r1(); // answered at 1_010_000: the slot frees at 1_011_000
    await clock.advanceToAsync(1_010_999);
    expect(order).toEqual([]);
    await clock.advanceToAsync(1_011_000);
    expect(order).toEqual([3]);
    r2();
    await clock.advanceToAsync(1_012_000);
    expect(order).toEqual([3, 4]);
    expect(l.stats()).toMatchObject({ granted: 4, delayed: 2, queued: 0 });
    (await third)();
    (await fourth)();
  });

  it('rejects waiters when closed', async () => {
    const l = new SegmentLimiter('BSE EQUITY', 1, new VirtualClock(0));
    await l.acquire();
    const waiting = l.acquire();
    l.close();
    await expect(waiting).rejects.toThrow('order queue of BSE EQUITY closed');
  });
});
