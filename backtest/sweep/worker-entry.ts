/**
 * How a sweep worker loads the engine. Loaded module by module, a worker spends most of its first
 * second in the module loader: through tsx every TypeScript file is transpiled on a loader thread,
 * and even plain JS (dist/) pulls in some 550 files (rxjs and zod alone are hundreds). So the
 * worker entry is bundled once with esbuild into one ES module, which a worker loads in ~0.1 s.
 * The bundle is cached under node_modules/.cache/tarang-sweep (the temp folder when that is
 * read-only) and rebuilt only when one of its inputs (every source and package file esbuild read,
 * plus tsconfig/package.json) changed size or modification time, so a cached sweep starts its
 * workers at once and a stale cache cannot run old code. If esbuild or both folders are unusable
 * the worker loads the modules directly (tsx for a source checkout, plain import for dist/):
 * slower to start, same results.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeError } from '../../src/core/errors.js';
import { packageRoot } from '../../src/core/paths.js';
import type { Plugin } from 'esbuild';

/** How the workers of one sweep load: `bundle` (the default) or `direct` (module by module). */
export type WorkerLoad = 'bundle' | 'direct';

export interface WorkerEntry {
  /** What `new Worker(code, { eval })` or `new Worker(url)` runs. */
  readonly spec: { readonly url: URL } | { readonly code: string };
  /** `bundle-cached`, `bundle-built`, `tsx` or `js`: shown by the bench and kept in the stats. */
  readonly how: 'bundle-cached' | 'bundle-built' | 'tsx' | 'js';
  /** Milliseconds spent preparing the entry (checking or building the bundle). */
  readonly ms: number;
  /** Why the bundle was not used, when it was asked for and could not be. */
  readonly fallback?: string;
}

/** Bumped when the build options below change, so an older cached bundle is not reused. */
const BUILD_VERSION = 2;

interface CacheMeta {
  readonly key: string;
  readonly bundle: string;
  readonly inputs: ReadonlyArray<readonly [path: string, mtimeMs: number, size: number]>;
}

function workerModule(): URL {
  const self = import.meta.url;
  return new URL(`./sweep-worker.${self.endsWith('.ts') ? 'ts' : 'js'}`, self);
}

/** The worker loaded module by module: tsx registered inside the worker for TypeScript sources. */
function directEntry(): { code: string; how: 'tsx' | 'js' } {
  const worker = workerModule().href;
  if (!worker.endsWith('.ts')) return { code: `import(${JSON.stringify(worker)});`, how: 'js' };
  // tsx is registered in the main thread only; a worker registers it itself before importing.
  const tsx = import.meta.resolve('tsx/esm/api');
  // The flag tells a strategy file's loader (src/strategies/strategy-file.ts) that tsx is in already.
  return { code: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); globalThis[Symbol.for('tarang.tsx-registered')] = true; return import(${JSON.stringify(worker)}); });`, how: 'tsx' };
}

function stamp(path: string): readonly [string, number, number] | undefined {
  try {
    const s = statSync(path);
    return [path, s.mtimeMs, s.size];
  } catch {
    return undefined;
  }
}

/** One record per entry (source checkout, dist/): switching between them rebuilds neither. */
function metaFile(key: string): string {
  return `meta-${createHash('sha256').update(key).digest('hex').slice(0, 12)}.json`;
}

function freshCache(dir: string, key: string): string | undefined {
  let meta: CacheMeta;
  try {
    meta = JSON.parse(readFileSync(join(dir, metaFile(key)), 'utf8')) as CacheMeta;
  } catch {
    return undefined;
  }
  if (meta.key !== key || !existsSync(join(dir, meta.bundle))) return undefined;
  for (const [path, mtimeMs, size] of meta.inputs) {
    const now = stamp(path);
    if (!now || now[1] !== mtimeMs || now[2] !== size) return undefined;
  }
  return join(dir, meta.bundle);
}

/** The bundles the cache records point to. */
function inUse(dir: string): Set<string> {
  const out = new Set<string>();
  for (const f of readdirSync(dir)) {
    if (!f.startsWith('meta-') || !f.endsWith('.json')) continue;
    try {
      out.add((JSON.parse(readFileSync(join(dir, f), 'utf8')) as CacheMeta).bundle);
    } catch {
      // Being replaced by another sweep: its bundle is new, not a pruning candidate.
    }
  }
  return out;
}

/** Removes bundles no record points to, once no sweep can still be starting from them (10 min). */
function prune(dir: string, keep: ReadonlySet<string>, now: number): void {
  for (const f of readdirSync(dir)) {
    if (!f.startsWith('sweep-worker-') || keep.has(f)) continue;
    const s = stamp(join(dir, f));
    if (s && now - s[1] > 600_000) {
      try {
        unlinkSync(join(dir, f));
      } catch {
        // Another sweep removed it first.
      }
    }
  }
}

/** Where bundles are kept: the package's node_modules/.cache, or the temp folder if that is read-only. */
export function bundleDirs(): string[] {
  const root = packageRoot();
  return [join(root, 'node_modules', '.cache', 'tarang-sweep'), join(tmpdir(), `tarang-sweep-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`)];
}

const LOADERS: Readonly<Record<string, 'ts' | 'js'>> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js' };

/**
 * Each module keeps its own `import.meta.url` inside the bundle (not the bundle's), so a module
 * that finds files relative to itself (src/core/paths.ts finds config/ that way) behaves exactly
 * as when loaded on its own, wherever the bundle is written.
 */
const keepModuleUrls: Plugin = {
  name: 'tarang-keep-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const loader = LOADERS[extname(args.path)] ?? 'js';
      return { contents: text.replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)), loader };
    });
  },
};

async function bundledEntry(dir: string): Promise<{ file: string; built: boolean }> {
  const esbuild = await import('esbuild');
  const root = packageRoot();
  const entry = fileURLToPath(workerModule());
  mkdirSync(dir, { recursive: true });
  const key = JSON.stringify([BUILD_VERSION, entry, esbuild.version, process.version]);
  const cached = freshCache(dir, key);
  if (cached) return { file: cached, built: false };

  const out = await esbuild.build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    // Class and function names stay as written: error texts and reports must not differ between
    // a combination run in a worker and one run on the main thread.
    keepNames: true,
    plugins: [keepModuleUrls],
    // Bundled CommonJS packages (pino, yaml) require node built-ins: give the ES module a require.
    banner: { js: "import { createRequire as __tarangRequire } from 'node:module'; const require = __tarangRequire(import.meta.url);" },
    write: false,
    metafile: true,
    outfile: join(dir, 'sweep-worker.mjs'),
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.contents;
  // Content-addressed, written under a temporary name and renamed: a sweep in another process
  // never sees a half-written bundle, and one already starting from an older bundle keeps it.
  const bundle = `sweep-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const tmp = join(dir, `.${bundle}.${process.pid}.tmp`);
  writeFileSync(tmp, code);
  renameSync(tmp, join(dir, bundle));
  const inputs = [...Object.keys(out.metafile.inputs).map((p) => join(root, p)), join(root, 'tsconfig.json'), join(root, 'package.json')]
    .map(stamp)
    .filter((s): s is readonly [string, number, number] => s !== undefined);
  const meta: CacheMeta = { key, bundle, inputs };
  const metaTmp = join(dir, `.${metaFile(key)}.${process.pid}.tmp`);
  writeFileSync(metaTmp, JSON.stringify(meta));
  renameSync(metaTmp, join(dir, metaFile(key)));
  prune(dir, inUse(dir), performance.timeOrigin + performance.now());
  return { file: join(dir, bundle), built: true };
}

async function firstWorking(dirs: readonly string[]): Promise<{ file: string; built: boolean }> {
  let error: unknown;
  for (const dir of dirs) {
    try {
      return await bundledEntry(dir);
    } catch (e) {
      // A read-only folder: try the next. A build error would repeat, so stop there.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EACCES' && code !== 'EROFS' && code !== 'EPERM') throw e;
      error = e;
    }
  }
  throw error;
}

export async function workerEntry(load: WorkerLoad = 'bundle', bundleDir?: string): Promise<WorkerEntry> {
  const t0 = performance.now();
  let fallback: string | undefined;
  if (load === 'bundle') {
    try {
      const { file, built } = await firstWorking(bundleDir ? [bundleDir] : bundleDirs());
      return { spec: { url: pathToFileURL(file) }, how: built ? 'bundle-built' : 'bundle-cached', ms: performance.now() - t0 };
    } catch (e) {
      fallback = describeError(e);
    }
  }
  const { code, how } = directEntry();
  return { spec: { code }, how, ms: performance.now() - t0, ...(fallback !== undefined ? { fallback } : {}) };
}
