#!/usr/bin/env node
// The `tarang` command. It runs compiled JavaScript from dist/: its bundle, one file compiled from
// V8's code cache (bin/cli-bundle.js, bin/cli-loader.js; some 600 modules were most of start-up),
// or dist/ file by file when there is no bundle:
//  - an installed tarang (no src/), or TARANG_DIST=1: dist/ as it is;
//  - a source checkout: dist/ after checking it against the sources (bin/dist-stamp.js; bin/dist-build.js
//    when it is behind). Files
//    changed since the last compile are compiled again first (esbuild, milliseconds a file) and
//    dist/ bundled again (a fraction of a second), so old code never runs and the TypeScript is
//    not transpiled again on every start. If dist/ cannot be brought up to date (esbuild missing,
//    dist/ not writable), it says so on stderr and runs the sources through tsx instead: same
//    behaviour, slower start. TARANG_TSX=1 asks for tsx directly (stack traces point into the .ts
//    files); TARANG_BUNDLE=0 runs dist/ file by file (stack traces point into dist/, whose source
//    maps lead to the .ts files).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = new URL('../src/cli/main.ts', import.meta.url);
const dist = new URL('../dist/src/cli/main.js', import.meta.url);

/** The bundle the stamp of a built dist/ names (bin/dist-build.js), if it is there. */
async function shippedBundle() {
  let build;
  try {
    build = JSON.parse(readFileSync(new URL('../dist/.tarang-build.json', import.meta.url), 'utf8')).bundle;
  } catch {
    return undefined;
  }
  const { bundleEntry } = await import('./dist-stamp.js');
  return bundleEntry(root, build);
}

/** Runs dist/: the bundle `bundle` when given, else file by file. */
async function runDist(bundle) {
  if (bundle && process.env.TARANG_BUNDLE !== '0') {
    const { runBundle } = await import('./cli-loader.js');
    process.exitCode = await runBundle(root, bundle, process.argv);
  } else {
    await import(dist.href);
  }
}

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
  await runDist(await shippedBundle());
} else if (process.env.TARANG_TSX === '1') {
  await runTsx();
} else {
  let ready;
  try {
    // The check alone first (dist-stamp.js): the compiler and bundler (dist-build.js, with what it
    // imports) are loaded only when dist/ is behind the sources.
    const { bundleEntry, distChanges } = await import('./dist-stamp.js');
    const c = distChanges(root);
    const current = !c.all && c.changed.length === 0 && c.removed.length === 0;
    const r = current ? { compiled: 0, bundle: bundleEntry(root, c.bundle) } : await (await import('./dist-build.js')).ensureDist(root);
    if (r.compiled > 0 && process.stderr.isTTY) process.stderr.write(`tarang: ${r.reason}; compiled ${r.compiled} file(s) into dist/\n`);
    ready = r;
  } catch (e) {
    process.stderr.write(`tarang: cannot bring dist/ up to date with the sources (${e instanceof Error ? e.message : String(e)}); running them through tsx (slower start)\n`);
  }
  if (ready) await runDist(ready.bundle);
  else await runTsx();
}
