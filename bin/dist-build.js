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
//   - `import { ensureDist } from './dist-build.js'` (bin/tarang.js, every start in a checkout);
//   - `node bin/dist-build.js` (`npm run build`): tsc -p tsconfig.build.json, then the stamp;
//   - `node bin/dist-build.js --quick` (`prepare`, run by `npm ci` / `npm install`): esbuild only,
//     and never fails the install (a failure is reported; the bin then compiles or uses tsx).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildCliBundle, bundleEntry } from './cli-bundle.js';

/** Folders compiled into dist/ (tsconfig.build.json `include`). */
const INPUT_DIRS = ['src', 'backtest'];
/**
 * Files whose change means every output may differ: the compile and bundle options (bin/), and
 * the packages bundled (package-lock.json).
 */
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'bin/dist-build.js', 'bin/cli-bundle.js'];
/** Bumped when the compile or bundle options change, so older output is built again. */
const STAMP_VERSION = 2;
const STAMP = '.tarang-build.json';

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');
const posix = (p) => p.split(sep).join('/');

function stat(path) {
  try {
    const s = statSync(path);
    return { mtimeMs: s.mtimeMs, size: s.size, dir: s.isDirectory() };
  } catch {
    return undefined;
  }
}

/** Every source file and folder under `dir` (relative to `root`), with their stamps. */
function walk(root, dir, files, dirs) {
  const abs = join(root, dir);
  const s = stat(abs);
  if (!s?.dir) return;
  dirs[posix(dir)] = s.mtimeMs;
  for (const e of readdirSync(abs, { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) walk(root, rel, files, dirs);
    else if (e.isFile() && isSource(e.name)) {
      const f = stat(join(root, rel));
      if (f) files[posix(rel)] = [f.mtimeMs, f.size];
    }
  }
}

/** The sources as they are now: what a stamp records. */
function snapshot(root) {
  const files = {};
  const dirs = {};
  for (const d of INPUT_DIRS) walk(root, d, files, dirs);
  const config = {};
  for (const c of CONFIG_FILES) {
    const s = stat(join(root, c));
    config[c] = s ? [s.mtimeMs, s.size] : null;
  }
  return { version: STAMP_VERSION, config, files, dirs };
}

function readStamp(root) {
  try {
    const s = JSON.parse(readFileSync(join(root, 'dist', STAMP), 'utf8'));
    return s && s.version === STAMP_VERSION && s.files && s.dirs && s.config ? s : undefined;
  } catch {
    return undefined;
  }
}

const sameStamp = (a, b) => (a === null || a === undefined ? b === null || b === undefined : !!b && a[0] === b[0] && a[1] === b[1]);

/**
 * What differs between dist/ and the sources: `{ all: true, reason }` when dist/ has no usable stamp
 * or a config file changed, else `{ changed, removed, reason }` (empty lists: current). Only
 * folders whose time changed are listed again, so a current dist/ costs one stat per file.
 */
export function distChanges(root) {
  const stamp = readStamp(root);
  if (!stamp) return { all: true, reason: 'dist/ has no build stamp' };
  for (const c of CONFIG_FILES) {
    const s = stat(join(root, c));
    if (!sameStamp(stamp.config[c], s ? [s.mtimeMs, s.size] : null)) return { all: true, reason: `${c} changed` };
  }
  const changed = [];
  const removed = [];
  for (const [rel, was] of Object.entries(stamp.files)) {
    const s = stat(join(root, rel));
    if (!s) removed.push(rel);
    else if (s.mtimeMs !== was[0] || s.size !== was[1]) changed.push(rel);
  }
  for (const [dir, mtimeMs] of Object.entries(stamp.dirs)) {
    const s = stat(join(root, dir));
    if (!s?.dir || s.mtimeMs === mtimeMs) continue;
    // Files or folders added here (removals were found above).
    const files = {};
    const dirs = {};
    walk(root, dir, files, dirs);
    for (const rel of Object.keys(files)) if (!(rel in stamp.files)) changed.push(rel);
  }
  const first = changed[0] ?? removed[0];
  return { changed: [...new Set(changed)], removed, bundle: stamp.bundle, ...(first ? { reason: `${first} ${changed.length ? 'changed' : 'was removed'}` } : {}) };
}

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
