/**
 * A paper-trading daemon for strategy tests: the real daemon (`launchDaemon`, mode paper) with the
 * simulator embedded on a VirtualClock, talking over loopback HTTP and WebSocket through the broker
 * adapter. `run(ms)` moves simulated time a second at a time and lets the daemon and simulator
 * settle (no HTTP in flight, WebSocket frames read) after each step: counted in event-loop turns,
 * not wall milliseconds, so a loaded machine changes nothing but the run time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Event } from '../../../src/core/events.js';
import { silentLogger } from '../../../src/core/log.js';
import { istDateTime } from '../../../src/core/time.js';
import { DaemonConfigSchema, type DaemonConfigInput } from '../../../src/daemon/config.js';
import type { Daemon } from '../../../src/daemon/daemon.js';
import { launchDaemon } from '../../../src/daemon/launch.js';
import type { RunningSimulator } from '../../../src/adapters/simulator/index.js';
import { driveTo } from '../../support/settle.js';

export interface PaperDaemon {
  readonly daemon: Daemon;
  readonly sim: RunningSimulator;
  readonly clock: VirtualClock;
  /** Every intent, order, fill and denial on the engine's bus, in order. */
  readonly events: Event[];
  run(ms: number): Promise<void>;
  /** Jumps the simulated market price of an instrument by a factor (rounded to 5 paise). */
  jump(instrument: string, factor: number): number;
  close(): Promise<void>;
}

export async function startPaperDaemon(o: {
  day: string;
  strategies: DaemonConfigInput['strategies'];
  risk?: DaemonConfigInput['risk'];
  seed?: number;
  /** Load the F&O instrument master too (option strategies). */
  fno?: boolean;
}): Promise<PaperDaemon> {
  const clock = new VirtualClock(istDateTime(o.day, '09:15'));
  const config = DaemonConfigSchema.parse({
    strategies: o.strategies,
    ...(o.risk ? { risk: o.risk } : {}),
    paper: { simulator: 'embedded', seed: o.seed ?? 3, date: o.day },
    ops: { enabled: false },
    recording: { enabled: false },
    statusIntervalMs: 0,
    stateDir: mkdtempSync(join(tmpdir(), 'tarang-strategy-paper-')),
    log: { level: 'silent' },
  });
  const { daemon, simulator } = await launchDaemon({
    config,
    file: 'strategy-paper.yaml',
    mode: 'paper',
    log: silentLogger(),
    out: null,
    clock,
    simulator: { venue: { nseEquities: 30, bseEquities: 5 } },
    sources: o.fno ? ['equity', 'index', 'fno'] : ['equity', 'index'],
  });
  await daemon.start();
  const sim = simulator!;
  const events: Event[] = [];
  const bus = daemon.engineHandle!.bus;
  for (const type of ['intent', 'order', 'fill', 'denied'] as const) bus.on(type, (e: Event) => events.push(e));
  return {
    daemon,
    sim,
    clock,
    events,
    async run(ms) {
      await driveTo(clock, clock.now() + ms);
    },
    jump(instrument, factor) {
      const ltp = sim.venue.quote(instrument)!.ltp;
      const price = Math.round((ltp * factor) / 5) * 5;
      sim.venue.setPrice(instrument, price);
      return price;
    },
    async close() {
      await daemon.stop('test done');
    },
  };
}
