import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// tarang's state folder for the run: an empty one, so what a developer keeps in ~/.tarang (an
// imported stock freeze table, a catalog, a shared token) never changes what a test sees.
const tarangHome = mkdtempSync(join(tmpdir(), 'tarang-test-home-'));

export default defineConfig({
  // What package.json `exports` gives a strategy file at run time (there: through
  // src/strategies/strategy-file.ts), for strategy files that tests import in-process.
  resolve: {
    alias: {
      'tarang/strategy': fileURLToPath(new URL('./src/strategies/api/strategy.ts', import.meta.url)),
      'tarang/indicators': fileURLToPath(new URL('./src/strategies/api/indicators.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real servers on loopback; give slow CI machines room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
    env: { TARANG_HOME: tarangHome },
  },
});
