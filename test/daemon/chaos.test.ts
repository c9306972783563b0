/**
 * #14 done-when: the daemon against the simulator through a seeded random schedule of faults
 * (timeouts, lost acks, 5xx, terse and batched updates, WS drops and stalls, a token revoke, kill -9
 * of a child daemon and a restart, the store flushed and Redis restarted), checked after every step:
 * each strategy's position within what its intents allow, tarang's view equal to the broker's, no
 * intent gone without a denial (or a rejected order its strategy heard of), no position mismatch
 * (test/daemon/support/chaos.ts). The seed is
 * printed on failure; TARANG_CHAOS_SEED=<seed> replays it. The long run is `npm run bench -- chaos`.
 */
import { describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, redisAvailable } from '../support/redis.js';
import { runChaos } from './support/chaos.js';

const available = await redisAvailable();
const seed = Number(process.env['TARANG_CHAOS_SEED'] ?? 20261126);

describe.skipIf(!available)('chaos: the daemon through a seeded schedule of faults (real simulator, real Redis)', () => {
  it('keeps every strategy at 0 or its qty, agrees with the broker after every step, and loses no intent', async () => {
    const report = await runChaos({ seed, extraSteps: 0, redisUrl: TEST_REDIS_URL, faultMs: 120_000 });
    const summary = `chaos seed ${report.seed} (replay: TARANG_CHAOS_SEED=${report.seed}); steps ${report.steps.join(', ')}`;
    expect(report.problems, summary).toEqual([]);
    expect(report.orders, `${summary}: the strategies traded`).toBeGreaterThan(0);
    expect(report.mismatches, summary).toBe(0);
    // Every stall incident was heard of, and resolved.
    expect(report.alerts['WS_STALLED'], summary).toBeGreaterThanOrEqual(1);
    expect(report.alerts['WS_FLOWING'], summary).toBe(report.alerts['WS_STALLED']);
  }, 400_000);
});
