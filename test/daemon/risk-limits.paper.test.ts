/**
 * The limits a daemon starts with, said in rupees in its log, and the warning for a config still
 * written in paise (the unit before 2026-11): `tarang paper`'s start path (config file, flags,
 * launchDaemon with the embedded simulator, real HTTP/WebSocket), its pino output captured.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log.js';
import { loadDaemonConfig } from '../../src/daemon/config.js';
import { launchDaemon, paperStart } from '../../src/daemon/launch.js';
import { IMPLAUSIBLE_LIMIT } from '../../src/daemon/risk-limits.js';
import { applyFlags } from '../../src/daemon/run-cli.js';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [k: string]: unknown;
}

const INFO = 30;
const WARN = 40;

/** Starts `tarang paper` on a config with this `risk:` section and stops it; returns its log lines and alerts. */
async function startWith(riskYaml: readonly string[]): Promise<{ lines: LogLine[]; alerts: ReadonlyArray<{ code: string; level: string; message: string }> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-limits-'));
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    [
      'paper:',
      '  simulator: embedded',
      '  date: "2026-11-20"',
      '  start: "10:00"',
      '  capital: 1000000          # rupees',
      '  market: { nseEquities: 10, bseEquities: 0 }',
      'strategies:',
      '  - id: sma',
      '    strategy: sma-cross',
      '    params: { instrument: "NSE:RELIANCE", interval: 1minute, fast: 3, slow: 10, qty: 1 }',
      ...riskYaml,
      'ops: { enabled: false }',
      'recording: { enabled: false }',
      'circuits: { enabled: false }',
      'statusIntervalMs: 0',
      `stateDir: ${JSON.stringify(dir)}`,
    ].join('\n'),
  );
  const text: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      text.push(String(chunk));
      done();
    },
  });
  const config = applyFlags(loadDaemonConfig(file), { config: file, status: false }, 'paper');
  const log = createLogger({ level: 'info', pretty: false, destination: sink });
  // The clock stands still: start-up needs no market time, and nothing is paced from wall time.
  const clock = new VirtualClock(paperStart(config.paper!));
  const { daemon } = await launchDaemon({ config, file, mode: 'paper', log, out: null, clock });
  try {
    await daemon.start();
  } finally {
    await daemon.stop('test done', 'none');
  }
  const lines = text.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine);
  return { lines, alerts: daemon.alerter.raised };
}

describe('tarang paper says its risk limits in rupees at start', () => {
  it('logs every limit and the paper capital the Indian way, and warns about none when they are plausible', async () => {
    const { lines, alerts } = await startWith([
      'risk:',
      '  maxOrderValue: 500000',
      '  maxPositionValue: "2,00,000"',
      '  maxDailyLoss: 50000',
      '  maxOpenOrders: 20',
      '  orderRate: { max: 5, windowMs: 1000 }',
    ]);
    const limits = lines.filter((l) => l.level === INFO && l.msg.startsWith('daemon: risk limits (rupees):'));
    expect(limits).toHaveLength(1);
    const msg = limits[0]!.msg;
    expect(msg).toContain('max order value ₹5,00,000.00');
    expect(msg).toContain('max position value ₹2,00,000.00');
    expect(msg).toContain('max daily loss ₹50,000.00 (trips the kill switch)');
    expect(msg).toContain('max open orders 20');
    expect(msg).toContain('order rate 5 per 1000 ms per strategy');
    expect(msg).toContain('modifications 25 per order, cancel-and-replace from the 24th');
    expect(msg).toContain('kill switch off, trading active');
    expect(msg).toContain('paper capital ₹10,00,000.00');
    expect(msg).toContain('funds available ₹10,00,000.00');
    expect(limits[0]!['risk']).toMatchObject({ maxOrderValue: '₹5,00,000.00', maxDailyLoss: '₹50,000.00', maxPositionQty: 'off', killSwitch: 'off', checksOff: [] });
    // Said before any market data is asked for.
    const at = lines.indexOf(limits[0]!);
    expect(lines.findIndex((l) => l.msg === 'daemon: subscribed to market data')).toBeGreaterThan(at);
    expect(alerts.filter((a) => a.code === IMPLAUSIBLE_LIMIT)).toEqual([]);
    expect(lines.filter((l) => l.level >= WARN && /RISK_LIMIT|risk\.max/.test(JSON.stringify(l)))).toEqual([]);
  }, 60_000);

  it('warns, without refusing, when the limits are the old paise figures of config/paper.yaml', async () => {
    // config/paper.yaml before 2026-11: maxOrderValue 50000000 paise (Rs 5 lakh then), maxDailyLoss 5000000 paise (Rs 50,000).
    const { lines, alerts } = await startWith(['risk:', '  maxOpenOrders: 20', '  maxOrderValue: 50000000    # paise (5 lakh rupees)', '  maxDailyLoss: 5000000      # paise (50,000 rupees): kill switch']);
    const msg = lines.find((l) => l.msg.startsWith('daemon: risk limits (rupees):'))?.msg ?? '';
    expect(msg).toContain('max order value ₹5,00,00,000.00');
    expect(msg).toContain('max daily loss ₹50,00,000.00');

    const warned = alerts.filter((a) => a.code === IMPLAUSIBLE_LIMIT);
    expect(warned.map((a) => a.level)).toEqual(['warn', 'warn']);
    const [order, loss] = warned;
    expect(order!.message).toMatch(/^risk\.maxOrderValue \(max order value\) ₹5,00,00,000\.00 is more than 10 times the account's ₹10,00,000\.00/);
    expect(order!.message).toContain('it meant ₹5,00,000.00');
    expect(loss!.message).toMatch(/^risk\.maxDailyLoss \(max daily loss\) ₹50,00,000\.00 is more than the account's ₹10,00,000\.00/);
    expect(loss!.message).toContain('it meant ₹50,000.00');
    for (const a of warned) expect(a.message).toContain('heuristic warning, not a refusal');
    // Each is a warn line in the log too, and the daemon went on to run.
    const warnLines = lines.filter((l) => l.level === WARN && l['alert'] === IMPLAUSIBLE_LIMIT);
    expect(warnLines.map((l) => l.msg)).toEqual(warned.map((a) => a.message));
    expect(lines.some((l) => l.msg === 'daemon: subscribed to market data')).toBe(true);
  }, 60_000);
});
