/**
 * `tarang paper` with an option strategy, through the CLI's own start path (`runFromCli`: config
 * file, launch, embedded simulator paced at an accelerated clock, real HTTP/WebSocket): the daemon
 * itself discovers expiries, fetches the chain in the strategy's window, subscribes its legs and
 * feeds it to short-straddle, which sells the ATM pair and is flat after its exit time. The
 * recording (every bus event) is the record to assert on.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events.js';
import { istDateTime } from '../../src/core/time.js';
import { readRecording } from '../../src/daemon/recorder.js';
import { runFromCli } from '../../src/daemon/run-cli.js';

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
        '  duration: 26m',
        '  seed: 3',
        '  market: { nseEquities: 30, bseEquities: 5 }',
        'strategies:',
        '  - id: straddle',
        '    strategy: short-straddle',
        '    params: { underlyingInstrument: "NIDX:NIFTY", entryTime: "09:20", exitTime: "09:40", lots: 1 }',
        'ops: { enabled: false }',
        'recording: { enabled: true, dir: ./rec }',
        // The strategy must be flat by itself: nothing is flattened at stop.
        'shutdown: { onStop: none }',
        'statusIntervalMs: 0',
        `stateDir: ${JSON.stringify(dir)}`,
        'log: { level: silent }',
      ].join('\n'),
    );
    await runFromCli('paper', { config: file, status: false });

    const events: Event[] = [];
    for await (const e of readRecording(join(dir, 'rec'))) events.push(e);
    const fills = events.filter((e): e is Extract<Event, { type: 'fill' }> => e.type === 'fill');
    const sells = fills.filter((f) => f.side === 'SELL');
    expect(sells).toHaveLength(2);
    expect(sells.every((f) => f.instrument.startsWith('NFO_') && f.ts >= istDateTime(DAY, '09:20') && f.ts < istDateTime(DAY, '09:40'))).toBe(true);
    expect(new Set(sells.map((f) => f.instrument)).size).toBe(2);
    const orders = events.filter((e): e is Extract<Event, { type: 'order' }> => e.type === 'order').map((e) => e.order);
    // A stop-loss BUY per leg went in after the sale.
    const stops = new Set(orders.filter((o) => o.side === 'BUY' && o.orderType === 'STOP_LOSS').map((o) => o.instrument));
    expect(stops).toEqual(new Set(sells.map((f) => f.instrument)));
    // Bought back at the exit time, not before, and flat.
    const buys = fills.filter((f) => f.side === 'BUY');
    expect(buys.reduce((n, f) => n + f.qty, 0)).toBe(sells.reduce((n, f) => n + f.qty, 0));
    expect(buys.every((f) => f.ts >= istDateTime(DAY, '09:40'))).toBe(true);
    for (const leg of new Set(sells.map((f) => f.instrument))) {
      const last = events.filter((e): e is Extract<Event, { type: 'position' }> => e.type === 'position' && e.instrument === leg).at(-1);
      expect(last?.netQty).toBe(0);
    }
    // The daemon subscribed the chain's legs: option ticks reached the bus.
    const legTicks = events.filter((e) => e.type === 'tick' && e.instrument.startsWith('NFO_'));
    expect(legTicks.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'denied')).toEqual([]);
  }, 60_000);
});
