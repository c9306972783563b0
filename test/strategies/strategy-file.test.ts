/**
 * Strategies by name or by file (src/strategies/strategy-file.ts): a path relative to a folder, an
 * absolute path and a file: URL load the same definition; mistakes are named with what to fix.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isStrategyPath, resolveStrategy } from '../../src/strategies/strategy-file.js';
import { packageRoot } from '../../src/core/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-strategy-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
writeFileSync(
  join(dir, 'hold.ts'),
  `import { defineStrategy, z } from 'tarang/strategy';
export default defineStrategy({ name: 'hold', description: 'does nothing', params: z.object({ instrument: z.string() }).strict(), create: (p) => ({ instruments: [p.instrument] }) });
`,
);
writeFileSync(join(dir, 'empty.ts'), 'export const nothing = 1;\n');

describe('resolveStrategy', () => {
  it('tells names from paths', () => {
    expect(isStrategyPath('sma-cross')).toBe(false);
    for (const p of ['./x.ts', '../x.ts', '/abs/x.ts', 'file:///abs/x.ts', 'strategies/x.ts', 'x.js']) expect(isStrategyPath(p)).toBe(true);
  });

  it('looks a name up in the registry and keeps the name as the reference', async () => {
    const r = await resolveStrategy('sma-cross');
    expect(r.definition.name).toBe('sma-cross');
    expect(r.ref).toBe('sma-cross');
  });

  it('loads the same file by relative path, absolute path and file: URL (default export), referenced by its URL', async () => {
    const url = pathToFileURL(join(dir, 'hold.ts')).href;
    for (const ref of ['./hold.ts', join(dir, 'hold.ts'), url]) {
      const r = await resolveStrategy(ref, dir);
      expect(r.definition.name).toBe('hold');
      expect(r.ref).toBe(url);
    }
  });

  it('loads an example strategy from the repository by a path relative to the repository', async () => {
    const r = await resolveStrategy('examples/strategies/rsi-revert.ts', packageRoot());
    expect(r.definition.name).toBe('rsi-revert');
  });

  it('names an unknown strategy with the known ones, a missing file and a file without a definition', async () => {
    await expect(resolveStrategy('no-such')).rejects.toThrow(/unknown strategy "no-such"; known: .*sma-cross.*or a file such as \.\/strategies\/my-strategy\.ts/);
    await expect(resolveStrategy('./missing.ts', dir)).rejects.toThrow(`strategy file ./missing.ts not found (looked for ${join(dir, 'missing.ts')})`);
    await expect(resolveStrategy('./empty.ts', dir)).rejects.toThrow(/strategy file \.\/empty\.ts exports no strategy definition: write `export const definition = defineStrategy/);
  });
});
