import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig } from '../../src/daemon/config.js';
import { applyFlags } from '../../src/daemon/run-cli.js';
import { configPath } from '../../src/core/paths.js';

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
