import { afterEach, describe, expect, it } from 'vitest';
import { PacedClock } from '../../../../src/adapters/simulator/control/paced-clock.js';

let clock: PacedClock | undefined;
afterEach(() => clock?.stop());

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PacedClock (--speed)', () => {
  it('runs market time at speed x wall time and fires its timers on the way', async () => {
    clock = new PacedClock(1_000_000, 1000);
    const fired: number[] = [];
    clock.setInterval(() => fired.push(clock!.now()), 5_000);
    await wait(60);
    // At least 40 ms of wall time at x1000, allowing for a slow machine.
    expect(clock.now() - 1_000_000).toBeGreaterThanOrEqual(40_000);
    expect(fired.length).toBeGreaterThanOrEqual(8);
    expect(fired.every((t, i) => t === 1_000_000 + 5_000 * (i + 1))).toBe(true);
  });

  it('jumps forward on advance and set, and refuses to go back', () => {
    clock = new PacedClock(0, 1);
    const seen: number[] = [];
    clock.setTimeout(() => seen.push(clock!.now()), 3_600_000);
    clock.advance(3_600_000);
    expect(seen).toEqual([3_600_000]);
    expect(clock.now()).toBeGreaterThanOrEqual(3_600_000);
    clock.set(7_200_000);
    expect(clock.now()).toBeGreaterThanOrEqual(7_200_000);
    expect(() => clock!.set(10)).toThrow(/cannot move back/);
  });

  it('refuses a speed that is not a positive number', () => {
    expect(() => new PacedClock(0, 0)).toThrow(/speed/);
  });
});
