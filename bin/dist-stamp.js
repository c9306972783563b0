// Is dist/ current with the sources? The check every start in a source checkout makes (bin/tarang.js),
// apart from bin/dist-build.js, which brings dist/ up to date when it is not: that module imports
// the bundler (bin/cli-bundle.js), node:child_process and more, and loading them was over a third of
// what the check cost a start whose dist/ is current (the usual case). The stamp, its format and the
// walk over the sources live here; dist-build.js writes what this reads.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Under dist/: the CLI bundle and its code caches (bin/cli-bundle.js, bin/cli-loader.js). */
export const BUNDLE_DIR = 'cli';

/** Folders compiled into dist/ (tsconfig.build.json `include`). */
export const INPUT_DIRS = ['src', 'backtest'];
/**
 * Files whose change means every output may differ: the compile and bundle options (bin/), and
 * the packages bundled (package-lock.json).
 */
export const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'bin/dist-build.js', 'bin/dist-stamp.js', 'bin/cli-bundle.js'];
/** Bumped when the compile or bundle options (or this file's stamp) change, so older output is built again. */
export const STAMP_VERSION = 2;
export const STAMP = '.tarang-build.json';

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');
const posix = (p) => p.split(sep).join('/');

export function stat(path) {
  try {
    const s = statSync(path);
    return { mtimeMs: s.mtimeMs, size: s.size, dir: s.isDirectory() };
  } catch {
    return undefined;
  }
}

/** Every source file and folder under `dir` (relative to `root`), with their stamps. */
export function walk(root, dir, files, dirs) {
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
export function snapshot(root) {
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

export function readStamp(root) {
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

/** The bundle file a stamp names (`build` is its `bundle` member), if it is there. */
export function bundleEntry(root, build) {
  if (!build?.entry) return undefined;
  const file = join(root, 'dist', BUNDLE_DIR, build.entry);
  return existsSync(file) ? file : undefined;
}
