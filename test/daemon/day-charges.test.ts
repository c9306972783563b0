import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/log.js';
import { silentLogger } from '../../src/core/silent-log.js';
import { dayCharges } from '../../src/daemon/day-charges.js';

const warnings = (): { log: Logger; seen: string[] } => {
  const seen: string[] = [];
  const log = Object.assign(silentLogger(), { warn: (_o: unknown, msg?: string) => void seen.push(String(msg)) }) as Logger;
  return { log, seen };
};

describe('dayCharges', () => {
  it("reads the day's brokerage and charges from the broker's funds", async () => {
    const venue = { funds: async () => ({ available: 1_00_000_00, charges: 29_45, ts: 1 }) };
    expect(await dayCharges(venue, silentLogger())).toBe(29_45);
  });

  it('gives undefined when the funds say nothing of charges', async () => {
    expect(await dayCharges({ funds: () => ({ available: 0, ts: 1 }) }, silentLogger())).toBeUndefined();
  });

  it('gives undefined, with a warning, when the funds read fails', async () => {
    const { log, seen } = warnings();
    expect(await dayCharges({ funds: async () => Promise.reject(new Error('HTTP 503')) }, log)).toBeUndefined();
    expect(seen).toEqual(["daemon: the day's charges could not be read for the summary"]);
  });

  it('gives undefined when the broker does not answer in time, and does not wait for it', async () => {
    const never = { funds: () => new Promise<never>(() => undefined) };
    expect(await dayCharges(never, silentLogger(), 5)).toBeUndefined();
  });
});
