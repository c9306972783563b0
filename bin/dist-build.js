// dist/ for a source checkout: is it current, and if not, bring it up to date.
//
// `tarang` (bin/tarang.js) runs compiled JavaScript from dist/. In a source checkout dist/ can fall
// behind the sources (an edit, a `git pull`), and running it then would run old code. So dist/
// carries a stamp (dist/.tarang-build.json): the size and modification time of every source file it
// was compiled from, and of every source folder (a folder's time changes when a file is added to or
// removed from it). Checking it costs one stat per file (~400), a few milliseconds.
//
// When the stamp does not match, the changed and added files are compiled again with esbuild (one
// file in, one file out, as tsc does; milliseconds per file) and files whose source is gone are
// removed from dist/. Type-checking is not repeated here: that is `npm run typecheck` (or `npm run
// build`, which runs tsc itself and then writes the stamp).
//
// dist/ is also bundled (bin/cli-bundle.js: dist/cli/main-<hash>.cjs, which the bin runs) after
// every compile; the stamp names that bundle, so the bundle the bin runs is always the one built
// from the dist/ the stamp describes. A bundle that cannot be built is reported and left out (the
// stamp names none): the bin then runs dist/ file by file, slower to start, same behaviour.
//
// Used three ways:
//   - `import { ensureDist } from './dist-build.js'` (bin/tarang.js, when a start in a checkout finds
//     dist/ behind the sources: the check itself is bin/dist-stamp.js, which loads none of this);
//   - `node bin/dist-build.js` (`npm run build`): tsc -p tsconfig.build.json, then the stamp;
//   - `node bin/dist-build.js --quick` (`prepare`, run by `npm ci` / `npm install`): esbuild only,
//     and never fails the install (a failure is reported; the bin then compiles or uses tsx).
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildCliBundle } from './cli-bundle.js';
import { STAMP, bundleEntry, distChanges, readStamp, snapshot } from './dist-stamp.js';

export { distChanges } from './dist-stamp.js';

/** Writes `data` to `file` through a temporary name: a process starting meanwhile sees the old file or the new, never half of one. */
function writeAtomic(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Compiles `files` (relative to `root`) into dist/ with esbuild, each file on its own. */
async function compile(root, files) {
  if (files.length === 0) return;
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: files.map((f) => join(root, f)),
    absWorkingDir: root,
    outbase: root,
    outdir: join(root, 'dist'),
    bundle: false,
    platform: 'node',
    format: 'esm',
    // The language level tsc emits for tsconfig.json's target, so both compilers' output behaves alike.
    target: 'es2022',
    tsconfig: join(root, 'tsconfig.build.json'),
    sourcemap: 'linked',
    write: false,
    logLevel: 'silent',
  });
  for (const f of out.outputFiles) writeAtomic(f.path, f.contents);
}

function removeOutputs(root, rel) {
  const base = join(root, 'dist', rel.replace(/\.ts$/, ''));
  for (const ext of ['.js', '.js.map', '.d.ts', '.d.ts.map']) rmSync(`${base}${ext}`, { force: true });
}

/**
 * Bundles the dist/ just compiled and writes the stamp `now` naming the bundle. A bundle that
 * cannot be built is said on stderr and left out (the stamp names none, so it is not tried again
 * until the sources change); the bin then runs dist/ file by file.
 */
async function bundleAndStamp(root, now) {
  const previous = readStamp(root)?.bundle;
  let bundle = null;
  let failed = false;
  try {
    bundle = await buildCliBundle(root, previous);
  } catch (e) {
    failed = true;
    process.stderr.write(`tarang: could not bundle dist/ (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); \`tarang\` runs dist/ file by file (slower start)\n`);
  }
  writeAtomic(join(root, 'dist', STAMP), JSON.stringify({ ...now, bundle }));
  return { bundle, failed };
}

/**
 * Brings dist/ up to date with the sources and says what it did: `{ compiled, removed, reason,
 * bundle }` (`compiled` 0 and no reason: it was current; `bundle`: the bundle's file, when there
 * is one). Throws when esbuild is missing or fails, or dist/ cannot be written:
 * the caller then runs the sources another way.
 */
export async function ensureDist(root) {
  const c = distChanges(root);
  if (!c.all && c.changed.length === 0 && c.removed.length === 0) return { compiled: 0, removed: 0, bundle: bundleEntry(root, c.bundle) };
  // The stamp records the sources as they were before compiling: a file edited while this runs is
  // newer than its stamp, so the next start compiles it again.
  const now = snapshot(root);
  const files = c.all ? Object.keys(now.files) : c.changed.filter((f) => f in now.files);
  await compile(root, files);
  for (const rel of c.removed ?? []) removeOutputs(root, rel);
  const { bundle } = await bundleAndStamp(root, now);
  return { compiled: files.length, removed: c.removed?.length ?? 0, reason: c.reason, bundle: bundleEntry(root, bundle) };
}

/** `npm run build`: tsc (types checked, declarations and source maps written), the bundle, then the stamp. */
async function buildWithTsc(root) {
  const now = snapshot(root);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) return r.status ?? 1;
  return (await bundleAndStamp(root, now)).failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (process.argv.includes('--quick')) {
    // `prepare`: never fail an install over this; the bin compiles (or falls back to tsx) on its first start.
    try {
      const t0 = performance.now();
      const r = await ensureDist(root);
      if (r.compiled || r.removed) process.stderr.write(`tarang: compiled ${r.compiled} file(s) into dist/ in ${Math.round(performance.now() - t0)} ms\n`);
    } catch (e) {
      process.stderr.write(`tarang: could not compile dist/ now (${e instanceof Error ? e.message : String(e)}); \`tarang\` will try again when it starts\n`);
    }
  } else {
    process.exitCode = await buildWithTsc(root);
  }
}
