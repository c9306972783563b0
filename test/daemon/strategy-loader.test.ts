import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineStrategy, type StrategyDefinition } from '../../src/strategies/strategy.js';
import { loadStrategySpecs } from '../../src/daemon/strategy-loader.js';
import { symbolIndex } from '../../src/daemon/symbols.js';
import { RELIANCE } from '../support/instruments.js';

const here = dirname(fileURLToPath(import.meta.url));
const sma = defineStrategy({ name: 'sma-cross', description: 'x', params: z.object({}).passthrough(), create: () => ({ instruments: [] }) });
const lookup = (n: string): StrategyDefinition | undefined => (n === 'sma-cross' ? (sma as unknown as StrategyDefinition) : undefined);
const symbols = symbolIndex([RELIANCE]);
const base = { lookup, symbols, baseDir: here, source: 'cfg.yaml', known: () => ['sma-cross'] };

describe('loadStrategySpecs', () => {
  it('looks names up in the registry, loads paths relative to the config, resolves symbols and skips disabled entries', async () => {
    const specs = await loadStrategySpecs(
      [
        { id: 'a', strategy: 'sma-cross', params: { instrument: 'NSE:RELIANCE' }, enabled: true },
        { id: 'b', strategy: './fixtures/constant-strategy.ts', params: { instrument: 'NSE_2885' }, enabled: true },
        { id: 'c', strategy: 'sma-cross', params: {}, enabled: false },
      ],
      base,
    );
    expect(specs.map((s) => s.id)).toEqual(['a', 'b']);
    expect(specs[0]).toMatchObject({ params: { instrument: 'NSE_2885' } });
    expect('definition' in specs[1]! && specs[1].definition.name).toBe('buy-once');
  });

  it('names the entry of an unknown strategy, a duplicate id and a bad module', async () => {
    await expect(loadStrategySpecs([{ id: 'a', strategy: 'nope', params: {}, enabled: true }], base)).rejects.toThrow('cfg.yaml: strategies.0.strategy: unknown strategy "nope"; known: sma-cross');
    await expect(
      loadStrategySpecs(
        [
          { id: 'a', strategy: 'sma-cross', params: {}, enabled: true },
          { id: 'a', strategy: 'sma-cross', params: {}, enabled: true },
        ],
        base,
      ),
    ).rejects.toThrow('cfg.yaml: strategies.1.id: duplicate strategy id "a"');
    await expect(loadStrategySpecs([{ id: 'a', strategy: './fixtures/missing.ts', params: {}, enabled: true }], base)).rejects.toThrow(/strategies\.0\.strategy: strategy file \.\/fixtures\/missing\.ts not found/);
  });
});
