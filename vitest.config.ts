import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
  },
});
