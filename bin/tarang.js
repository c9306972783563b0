#!/usr/bin/env node
// The `tarang` command. It runs compiled JavaScript from dist/:
//  - an installed tarang (no src/), or TARANG_DIST=1: dist/ as it is;
//  - a source checkout: dist/ after checking it against the sources (bin/dist-build.js). Files
//    changed since the last compile are compiled again first (esbuild, milliseconds a file), so
//    old code never runs and the TypeScript is not transpiled again on every start. If dist/
//    cannot be brought up to date (esbuild missing, dist/ not writable), it says so on stderr and
//    runs the sources through tsx instead: same behaviour, slower start. TARANG_TSX=1 asks for
//    tsx directly (stack traces point into the .ts files).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const src = new URL('../src/cli/main.ts', import.meta.url);
const dist = new URL('../dist/src/cli/main.js', import.meta.url);

async function runTsx() {
  const { register } = await import('tsx/esm/api');
  register();
  // Strategy files loaded later (src/strategies/strategy-file.ts) must not register tsx twice.
  globalThis[Symbol.for('tarang.tsx-registered')] = true;
  await import(src.href);
}

if (process.env.TARANG_DIST === '1' || !existsSync(src)) {
  if (!existsSync(dist)) {
    console.error('tarang: dist/ is missing; run `npm run build` first.');
    process.exit(1);
  }
  await import(dist.href);
} else if (process.env.TARANG_TSX === '1') {
  await runTsx();
} else {
  let ready = false;
  try {
    const { ensureDist } = await import('./dist-build.js');
    const r = await ensureDist(fileURLToPath(new URL('..', import.meta.url)));
    if (r.compiled > 0 && process.stderr.isTTY) process.stderr.write(`tarang: ${r.reason}; compiled ${r.compiled} file(s) into dist/\n`);
    ready = true;
  } catch (e) {
    process.stderr.write(`tarang: cannot bring dist/ up to date with the sources (${e instanceof Error ? e.message : String(e)}); running them through tsx (slower start)\n`);
  }
  if (ready) await import(dist.href);
  else await runTsx();
}
