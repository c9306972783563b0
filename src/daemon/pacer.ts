/**
 * Moves a VirtualClock with wall time at `speed` (market ms per wall ms), firing its timers in
 * order on the way. The paper daemon builds the embedded simulator on a still VirtualClock and only
 * then starts pacing it, so the market does not run ahead (speed x build time) while the simulator
 * builds its universe. Each step advances at most `maxStepMs` of market time so a stalled event
 * loop catches up in bounded slices instead of one long jump.
 */
import type { VirtualClock } from '../core/clock.js';

export interface Pacer {
  readonly speed: number;
  stop(): void;
}

export function paceClock(clock: VirtualClock, speed: number, o: { periodMs?: number; maxStepMs?: number } = {}): Pacer {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`pacer: speed must be a positive number, got ${speed}`);
  const wall0 = performance.now();
  const market0 = clock.now();
  const maxStep = o.maxStepMs ?? 60_000;
  const timer = setInterval(() => {
    const target = market0 + Math.floor((performance.now() - wall0) * speed);
    const now = clock.now();
    if (target > now) clock.advanceTo(Math.min(target, now + maxStep));
  }, o.periodMs ?? 5);
  timer.unref();
  return { speed, stop: () => clearInterval(timer) };
}
