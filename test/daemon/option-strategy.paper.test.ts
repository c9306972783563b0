/**
 * `tarang paper` with an option strategy, through the command's own start path (config file,
 * flags, `launchDaemon` with the embedded simulator, real HTTP/WebSocket): the daemon itself
 * discovers expiries, fetches the chain in the strategy's window, subscribes its legs and feeds it
 * to short-straddle, which sells the ATM pair and is flat after its exit time. The simulator's
 * order book is the record to assert on.
 *
 * The one difference from the command: the market clock is a VirtualClock the test moves a second
 * at a time once the daemon and simulator have settled (test/support/settle.ts), instead of the
 * wall-paced clock of `paper.speed`. Paced at 400x, a loaded machine let the 10-minute entry
 * window pass (1.5 s of wall time) before the chain arrived, and the test saw no sale at all.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { Event } from '../../src/core/events.js';
import { istDateTime } from '../../src/core/time.js';
import { silentLogger } from '../../src/core/log.js';
import { loadDaemonConfig } from '../../src/daemon/config.js';
import { launchDaemon, paperStart } from '../../src/daemon/launch.js';
import { applyFlags } from '../../src/daemon/run-cli.js';
import { driveTo } from '../support/settle.js';

const DAY = '2026-11-19';

describe('tarang paper with short-straddle', () => {
  it('discovers the chain itself, sells the ATM call and put at the entry time, subscribes the legs, and is flat after the exit time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tarang-paper-straddle-'));
    const file = join(dir, 'paper.yaml');
    writeFileSync(
      file,
      [
        'paper:',
        '  simulator: embedded',
        '  speed: 400',
        `  date: "${DAY}"`,
        '  start: "09:17"',
        '  seed: 3',
        '  market: { nseEquities: 30, bseEquities: 5 }',
        'strategies:',
        '  - id: straddle',
        '    strategy: short-straddle',
        '    params: { underlyingInstrument: "NIDX:NIFTY", entryTime: "09:20", exitTime: "09:40", lots: 1 }',
        'ops: { enabled: false }',
        'recording: { enabled: false }',
        // The strategy must be flat by itself: nothing is flattened at stop.
        'shutdown: { onStop: none }',
        'statusIntervalMs: 0',
        `stateDir: ${JSON.stringify(dir)}`,
        'log: { level: silent }',
      ].join('\n'),
    );
    // What `tarang paper --config <file>` does (run-cli.ts): load the file, apply the flags, launch
    // (embedded simulator), start, stop when the duration is reached.
    const config = applyFlags(loadDaemonConfig(file), { config: file, status: false }, 'paper');
    const clock = new VirtualClock(paperStart(config.paper!));
    const { daemon, simulator } = await launchDaemon({ config, file, mode: 'paper', log: silentLogger(), out: null, clock });
    const sim = simulator!;
    const events: Event[] = [];
    await daemon.start();
    daemon.engineHandle!.bus.onAny((e: Event) => events.push(e));
    // As run-cli does at --duration: stop on the clock, a few minutes after the exit time.
    const end = istDateTime(DAY, '09:43');
    clock.setTimeout(() => void daemon.stop('duration reached'), end - clock.now());
    await driveTo(clock, end);
    await daemon.stopped;

    // The broker's (simulator's) record: two sales, a stop per leg, bought back at the exit time, flat.
    const orders = sim.venue.orders();
    const sells = orders.filter((o) => o.side === 'SELL');
    expect(sells).toHaveLength(2);
    expect(sells.every((o) => o.status === 'FILLED' && o.createdAt >= istDateTime(DAY, '09:20') && o.createdAt < istDateTime(DAY, '09:40'))).toBe(true);
    const [ce, pe] = [sells.find((o) => o.tradingSymbol.endsWith('CE'))!, sells.find((o) => o.tradingSymbol.endsWith('PE'))!];
    const ceInst = sim.venue.instrument(ce.instrument)!;
    const peInst = sim.venue.instrument(pe.instrument)!;
    expect(ceInst.strike).toBe(peInst.strike);
    expect(ceInst.expiry).toBe(peInst.expiry);
    expect([ce.qty, pe.qty]).toEqual([ceInst.lotSize, peInst.lotSize]);
    const stops = orders.filter((o) => o.side === 'BUY' && o.requestedOrderType === 'STOP_LOSS');
    expect(new Set(stops.map((o) => o.instrument))).toEqual(new Set([ce.instrument, pe.instrument]));
    const buys = orders.filter((o) => o.side === 'BUY' && o.status === 'FILLED');
    expect(buys.every((o) => o.updatedAt >= istDateTime(DAY, '09:40'))).toBe(true);
    for (const leg of [ce.instrument, pe.instrument]) expect(sim.venue.positions().find((p) => p.instrument === leg)?.netQty ?? 0).toBe(0);
    expect(events.filter((e) => e.type === 'denied')).toEqual([]);
    // The daemon subscribed the chain's legs: option ticks reached the bus.
    expect(events.some((e) => e.type === 'tick' && (e.instrument === ce.instrument || e.instrument === pe.instrument))).toBe(true);
  }, 60_000);
});
