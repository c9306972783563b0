/**
 * `universe:` on a strategy entry: one instance per instrument with ids `<id>:<symbol>`, from a
 * list in the config or a file beside it; mistakes named by file, line and key before any login.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { loadDaemonConfig, StrategyEntrySchema } from '../../src/daemon/config.js';
import { launchDaemon } from '../../src/daemon/launch.js';
import { loadStrategySpecs } from '../../src/daemon/strategy-loader.js';
import { symbolIndex } from '../../src/daemon/symbols.js';
import { expandUniverse } from '../../src/daemon/universe.js';
import { defineStrategy, type StrategyDefinition } from '../../src/strategies/strategy.js';
import { RELIANCE } from '../support/instruments.js';

const INFY = { ...RELIANCE, id: 'NSE_1594', securityId: '1594', tradingSymbol: 'INFY', symbol: 'INFY' };

const dir = mkdtempSync(join(tmpdir(), 'tarang-universe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (e: Record<string, unknown>) => StrategyEntrySchema.parse({ id: 'sma', strategy: 'sma-cross', ...e });
const where = (path: readonly string[]) => `cfg.yaml: strategies.0.${path.join('.')}`;

describe('universe', () => {
  it('expands a list into one instance per instrument, ids <id>:<symbol>, params shared', () => {
    const out = expandUniverse(entry({ params: { qty: 5 }, universe: ['NSE:RELIANCE', 'NSE:INFY', 'NSE_2885'] }), { baseDir: dir, where });
    expect(out).toEqual([
      { id: 'sma:RELIANCE', params: { qty: 5, instrument: 'NSE:RELIANCE' } },
      { id: 'sma:INFY', params: { qty: 5, instrument: 'NSE:INFY' } },
      { id: 'sma:NSE_2885', params: { qty: 5, instrument: 'NSE_2885' } },
    ]);
    expect(expandUniverse(entry({ params: { instrument: 'NSE:TCS' } }), { baseDir: dir, where })).toEqual([{ id: 'sma', params: { instrument: 'NSE:TCS' } }]);
  });

  it('reads a universe file relative to the config, skipping comments and blank lines', () => {
    writeFileSync(join(dir, 'nifty.txt'), '# my list\nNSE:RELIANCE\n\nNSE:INFY  # IT\n');
    expect(expandUniverse(entry({ universe: 'nifty.txt' }), { baseDir: dir, where }).map((i) => i.id)).toEqual(['sma:RELIANCE', 'sma:INFY']);
  });

  it('names what is wrong and where: instrument beside a universe, a duplicate, a bad reference, a missing or empty file', () => {
    const x = (e: Record<string, unknown>) => () => expandUniverse(entry(e), { baseDir: dir, where });
    expect(x({ params: { instrument: 'NSE:TCS' }, universe: ['NSE:INFY'] })).toThrow('cfg.yaml: strategies.0.params.instrument: give instrument or universe, not both');
    expect(x({ universe: ['NSE:INFY', 'BSE:INFY'] })).toThrow('cfg.yaml: strategies.0.universe.1: BSE:INFY is in the universe twice (also NSE:INFY)');
    expect(x({ universe: ['NSE:INFY', 'NSE: TCS'] })).toThrow(/cfg.yaml: strategies.0.universe.1: "NSE: TCS" is not an instrument; write EXCHANGE:SYMBOL/);
    writeFileSync(join(dir, 'bad.txt'), 'NSE:INFY\nNSE:INFY\n');
    expect(x({ universe: 'bad.txt' })).toThrow(`${join(dir, 'bad.txt')}:2: NSE:INFY is in the universe twice`);
    expect(x({ universe: 'none.txt' })).toThrow(/cfg.yaml: strategies.0.universe: cannot read the universe file .*none.txt/);
    writeFileSync(join(dir, 'empty.txt'), '# nothing yet\n');
    expect(x({ universe: 'empty.txt' })).toThrow(/lists no instrument/);
    expect(() => StrategyEntrySchema.parse({ id: 'a', strategy: 's', universe: [] })).toThrow(/list at least one instrument/);
  });

  it('the daemon loads one spec per instrument with its symbol resolved to the scrip code', async () => {
    const def = defineStrategy({ name: 'sma-cross', description: '', params: z.object({ instrument: z.string(), qty: z.number() }), create: () => ({ instruments: [] }) }) as unknown as StrategyDefinition;
    const specs = await loadStrategySpecs([entry({ params: { qty: 1 }, universe: ['NSE:RELIANCE', 'NSE:INFY'] })], { lookup: () => def, symbols: symbolIndex([RELIANCE, INFY]), baseDir: dir, source: 'cfg.yaml' });
    expect(specs.map((s) => [s.id, 'params' in s ? s.params : undefined])).toEqual([
      ['sma:RELIANCE', { qty: 1, instrument: RELIANCE.id }],
      ['sma:INFY', { qty: 1, instrument: INFY.id }],
    ]);
    await expect(
      loadStrategySpecs([entry({ params: { qty: 1 }, universe: ['NSE:INFY'] }), { id: 'sma:INFY', strategy: 'sma-cross', params: { qty: 1, instrument: 'NSE:INFY' }, enabled: true }], { lookup: () => def, symbols: symbolIndex([RELIANCE, INFY]), baseDir: dir, source: 'cfg.yaml' }),
    ).rejects.toThrow('cfg.yaml: strategies.1.id: duplicate strategy id "sma:INFY"');
  });

  it('checks a universe entry before any login, with file and line', async () => {
    const file = join(dir, 'live.yaml');
    writeFileSync(file, ['broker: {}', 'strategies:', '  - id: s', '    strategy: sma-cross', '    params: { qty: 1, instrument: NSE:TCS }', '    universe:', '      - NSE:INFY', '  - id: t', '    strategy: sma-cross', '    params: { fast: x }', '    universe: [NSE:INFY]'].join('\n'));
    const config = loadDaemonConfig(file, { TARANG_BASE_URL: 'http://127.0.0.1:9', TARANG_WS_URL: 'ws://127.0.0.1:9', TARANG_ACCESS_TOKEN: 'tok' });
    let message = '';
    try {
      await launchDaemon({ config, file, mode: 'live', log: silentLogger(), out: null });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      `${file}:5: strategies.0.params.instrument: give instrument or universe, not both (the universe sets each instance's instrument)`,
      `${file}:10: strategies.1.params.fast: Invalid input: expected number, received string`,
      `${file}:10: strategies.1.params.qty: is required (sma-cross expects number)`,
    ]);
  });
});
