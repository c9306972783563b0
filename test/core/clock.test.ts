import { timer, interval, take, toArray, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock, WallClock } from '../../src/core/clock.js';

describe('VirtualClock', () => {
  it('fires timers in time order, with now() at each due time', () => {
    const clock = new VirtualClock(1000);
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 20);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 10);
    clock.setTimeout(() => seen.push(['c', clock.now()]), 20);
    clock.advanceBy(15);
    expect(seen).toEqual([['a', 1010]]);
    expect(clock.now()).toBe(1015);
    clock.advanceTo(2000);
    expect(seen).toEqual([['a', 1010], ['b', 1020], ['c', 1020]]);
  });

  it('repeats intervals and honours cancellation', () => {
    const clock = new VirtualClock(0);
    let n = 0;
    const h = clock.setInterval(() => n++, 100);
    clock.advanceTo(350);
    expect(n).toBe(3);
    h.cancel();
    clock.advanceTo(1000);
    expect(n).toBe(3);
    expect(clock.pending).toBe(0);
  });

  it('refuses to move backwards', () => {
    const clock = new VirtualClock(10);
    expect(() => clock.advanceTo(5)).toThrow(RangeError);
  });

  it('lets awaited work run between timers with advanceByAsync', async () => {
    const clock = new VirtualClock(0);
    const log: number[] = [];
    const task = (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(1000);
        log.push(clock.now());
      }
    })();
    await clock.advanceByAsync(5000);
    await task;
    expect(log).toEqual([1000, 2000, 3000]);
  });

  it('drives RxJS time operators as a scheduler', async () => {
    const clock = new VirtualClock(0);
    const values = firstValueFrom(interval(250, clock.scheduler).pipe(take(4), toArray()));
    let fired = 0;
    timer(1000, clock.scheduler).subscribe(() => (fired = clock.now()));
    clock.advanceTo(1000);
    expect(await values).toEqual([0, 1, 2, 3]);
    expect(fired).toBe(1000);
  });
});

describe('WallClock', () => {
  it('runs from a chosen start at a chosen speed', async () => {
    const clock = new WallClock({ start: 1_000_000, speed: 100 });
    await new Promise((r) => setTimeout(r, 20));
    const elapsed = clock.now() - 1_000_000;
    expect(elapsed).toBeGreaterThanOrEqual(1_500); // >= 15 ms of wall time x 100
  });

  it('rejects a non-positive speed', () => {
    expect(() => new WallClock({ speed: 0 })).toThrow(/speed must be a positive number/);
  });
});
