import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig } from '../../src/daemon/config.js';
import { applyFlags } from '../../src/daemon/run-cli.js';
import { configPath } from '../../src/core/paths.js';
import { ConfigError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { launchDaemon } from '../../src/daemon/launch.js';

const file = configPath('paper.yaml');

describe('tarang paper/run flags', () => {
  it('--strategy FILE with --param runs that strategy alone, its path made absolute from the current folder', () => {
    const c = applyFlags(loadDaemonConfig(file), { config: file, strategy: './examples/strategies/rsi-revert.ts', param: ['instrument=NSE:INFY', 'qty=5', 'stopPercent=1.5'] }, 'paper');
    expect(c.strategies).toEqual([{ id: 'rsi-revert', strategy: resolve('examples/strategies/rsi-revert.ts'), params: { instrument: 'NSE:INFY', qty: 5, stopPercent: 1.5 }, enabled: true }]);
  });

  it('--strategy NAME keeps the name, and --param alone or malformed is refused', () => {
    const c = applyFlags(loadDaemonConfig(file), { config: file, strategy: 'sma-cross', param: ['instrument=NSE:INFY', 'qty=1'] }, 'live');
    expect(c.strategies.map((s) => [s.id, s.strategy])).toEqual([['sma-cross', 'sma-cross']]);
    expect(() => applyFlags(loadDaemonConfig(file), { config: file, param: ['qty=1'] }, 'paper')).toThrow('--param: give the strategy too (--strategy NAME|FILE), or set params in the config');
    expect(() => applyFlags(loadDaemonConfig(file), { config: file, strategy: join('x', 'y.ts'), param: ['qty'] }, 'paper')).toThrow('--param: expected name=value, got "qty"');
  });
});

describe('tarang run/paper refuse bad input before touching the broker', () => {
  it('names --log-level and its choices for an unknown level', () => {
    const c = loadDaemonConfig(configPath('paper.yaml'));
    expect(() => applyFlags(c, { config: 'x', logLevel: 'loud' }, 'paper')).toThrow('--log-level: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"');
    expect(applyFlags(c, { config: 'x', logLevel: 'debug' }, 'paper').log.level).toBe('debug');
  });

  it('reports every strategy problem (unknown strategy, each bad or missing param) at once, with file and line, before any login', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tarang-preflight-'));
    const file = join(dir, 'live.yaml');
    writeFileSync(
      file,
      [
        'broker: {}',
        'strategies:',
        '  - id: s',
        '    strategy: sma-cross',
        '    params:',
        '      instrument: "NSE:RELIANCE"',
        '      fast: "x"',
        '      slow: -1',
        '  - id: t',
        '    strategy: nosuch',
      ].join('\n'),
    );
    // The broker section takes its settings from TARANG_* (broker: {} plus the environment).
    const config = loadDaemonConfig(file, { TARANG_BASE_URL: 'http://127.0.0.1:9', TARANG_WS_URL: 'ws://127.0.0.1:9', TARANG_ACCESS_TOKEN: 'tok' });
    expect(config.broker?.baseUrl).toBe('http://127.0.0.1:9');
    const lines = (await rejectionOf(launchDaemon({ config, file, mode: 'live', log: silentLogger(), out: null }))).split('\n');
    expect(lines).toEqual([
      `${file}:7: strategies.0.params.fast: Invalid input: expected number, received string`,
      `${file}:8: strategies.0.params.slow: Too small: expected number to be >0`,
      `${file}:5: strategies.0.params.qty: is required (sma-cross expects number)`,
      `${file}:10: strategies.1.strategy: unknown strategy "nosuch"; known: orb-smart, short-straddle, sma-cross`,
    ]);
  });
});

async function rejectionOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}
