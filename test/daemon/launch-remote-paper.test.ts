/**
 * Paper against a separate simulator (`tarang sim --speed N` in another terminal): the daemon's
 * clock follows the simulator's speed (read from GET /sim/clock), whatever paper.speed says, and
 * the WebSocket stall timeout is scaled by that speed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WallClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/log.js';
import { startSimulator, type RunningSimulator } from '../../src/adapters/simulator/index.js';
import { DaemonConfigSchema } from '../../src/daemon/config.js';
import { launchDaemon, pacedStallMs } from '../../src/daemon/launch.js';

describe('paper against a separate simulator', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ logger: silentLogger(), speed: 120, venue: { nseEquities: 5, bseEquities: 0 } });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('reads the simulator\'s speed from GET /sim/clock and runs the daemon\'s clock at it', async () => {
    const r = await request(`${sim.baseUrl}/sim/clock`);
    expect(((await r.body.json()) as { speed?: number }).speed).toBe(120);
    const config = DaemonConfigSchema.parse({
      broker: { baseUrl: sim.baseUrl, accessToken: sim.credentials.access_token },
      strategies: [{ id: 'sma', strategy: 'sma-cross', params: { instrument: 'NSE:RELIANCE', interval: '1minute', fast: 3, slow: 10, qty: 1 } }],
      store: 'memory',
      stateDir: mkdtempSync(join(tmpdir(), 'tarang-remote-')),
      ops: { enabled: false },
      recording: { enabled: false },
      paper: { simulator: sim.baseUrl, speed: 60 },
    });
    const { daemon, clock } = await launchDaemon({ config, file: join(tmpdir(), 'paper.yaml'), mode: 'paper', log: silentLogger(), out: null, sources: ['equity'] });
    try {
      expect(clock).toBeInstanceOf(WallClock);
      expect((clock as WallClock).speed).toBe(120);
      // Both clocks run at the same speed: over one second of wall time both move about 120 s of
      // market time (at paper.speed 60 the daemon's would move 60 s). The simulator's clock is
      // pumped every 5 ms of wall time, so on a loaded machine it lags by the event loop's delay
      // times 120 (seconds of market time): the bounds leave room for that, not for a wrong speed.
      const d0 = clock.now();
      const s0 = sim.clock.now();
      await new Promise((r) => setTimeout(r, 1_000));
      const moved = clock.now() - d0;
      const simMoved = sim.clock.now() - s0;
      expect(moved).toBeGreaterThan(100_000);
      expect(Math.abs(moved - simMoved)).toBeLessThan(20_000);
      // The offset is the daemon's one GET /sim/clock, times 120: a minute of market time is 0.5 s of wall time.
      expect(Math.abs(d0 - s0)).toBeLessThan(60_000);
    } finally {
      await daemon.stop();
    }
  });

  it('scales the stall timeout with the speed: a configured one as wall time, else 10 s of wall time', () => {
    expect(pacedStallMs(undefined, 1)).toBe(20_000);
    expect(pacedStallMs(undefined, 600)).toBe(6_000_000);
    expect(pacedStallMs(30_000, 60)).toBe(1_800_000);
  });
});
