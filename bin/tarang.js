#!/usr/bin/env node
// The `tarang` command. In a source checkout it runs the TypeScript directly (through tsx), so there
// is no stale build to trip over; from a built package (no src/, or TARANG_DIST=1) it runs dist/.
import { existsSync } from 'node:fs';

const src = new URL('../src/cli/main.ts', import.meta.url);
const dist = new URL('../dist/src/cli/main.js', import.meta.url);
const useDist = process.env.TARANG_DIST === '1' || !existsSync(src);

if (useDist) {
  if (!existsSync(dist)) {
    console.error('tarang: dist/ is missing; run `npm run build` first.');
    process.exit(1);
  }
  await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  // Strategy files loaded later (src/strategies/strategy-file.ts) must not register tsx twice.
  globalThis[Symbol.for('tarang.tsx-registered')] = true;
  await import(src.href);
}
