/**
 * Strategies by name or by file. `resolveStrategy('sma-cross')` looks the registry up;
 * `resolveStrategy('./my/rsi.ts')` (relative to `baseDir`), an absolute path or a `file:` URL is
 * imported and must export a StrategyDefinition as `definition` or `default`. The backtester, its
 * sweep workers and the daemon all load strategies through here, so a file that runs in one runs
 * in the others.
 *
 * A strategy file lives wherever its author keeps it, so two things are arranged in the thread
 * that imports it, once:
 *  - `tarang` and `tarang/<entry>` resolve to the running tarang (its own `src/` through tsx in a
 *    source checkout, `dist/` when built): the file needs no `npm install`, and a strategy always
 *    runs against the engine that loads it, never against another copy in its folder;
 *  - TypeScript: tsx's loader is registered unless this thread already has it (the `tarang` bin
 *    registers it for a source checkout and says so; a sweep worker bundle or a built tarang has
 *    none) or the code runs under vitest (vite transforms the import itself).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError, describeError } from '../core/errors.js';
import { importUrl } from '../core/import-url.js';
import { getStrategy, strategyNames } from './registry.js';
import type { StrategyDefinition } from './strategy.js';

/** Set on globalThis by whoever registers tsx in a thread (bin/tarang.js, a tsx sweep worker). */
export const TSX_REGISTERED = Symbol.for('tarang.tsx-registered');
const HOOKS_REGISTERED = Symbol.for('tarang.strategy-hooks-registered');

const SCRIPT = /\.(?:[cm]?ts|[cm]?js)$/;

/** A path rather than a registry name: `./x`, `../x`, `/abs/x`, `file:...`, or anything ending in .ts/.js. */
export function isStrategyPath(ref: string): boolean {
  return ref.startsWith('./') || ref.startsWith('../') || ref.startsWith('file:') || isAbsolute(ref) || SCRIPT.test(ref) || ref.includes('/') || ref.includes('\\');
}

function isDefinition(v: unknown): v is StrategyDefinition {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as { create?: unknown; name?: unknown; params?: { safeParse?: unknown } };
  return typeof d.create === 'function' && typeof d.name === 'string' && typeof d.params?.safeParse === 'function';
}

/** The running tarang's public entry points (package.json `exports`), beside this module. */
function entryPoints(): Record<string, string> {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const strategy = new URL(`./api/strategy.${ext}`, import.meta.url).href;
  return { tarang: strategy, 'tarang/strategy': strategy, 'tarang/indicators': new URL(`./api/indicators.${ext}`, import.meta.url).href };
}

/** A resolve hook (module.register) mapping `tarang` imports to this tarang; kept as data so it needs no file of its own. */
function hookSource(map: Record<string, string>): string {
  return `const map = ${JSON.stringify(map)};
export async function resolve(specifier, context, next) {
  const url = map[specifier];
  // Through the rest of the chain (tsx's resolve marks TypeScript for its own load hook).
  if (url !== undefined) return next(url, context);
  return next(specifier, context);
}`;
}

/**
 * tsx's ES-module API, found from this module's own location (a sweep worker's bundle may sit in
 * the temp folder, where a bare import would not find it) through tsx's package.json: `require`
 * would resolve its CommonJS build, which cannot register ES-module hooks from a bundle.
 */
function tsxEsmApi(): string {
  const pkgFile = createRequire(fileURLToPath(import.meta.url)).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: { './esm/api': { import: { default: string } } } };
  return pathToFileURL(join(dirname(pkgFile), pkg.exports['./esm/api'].import.default)).href;
}

async function prepareThread(): Promise<void> {
  const g = globalThis as Record<symbol, unknown>;
  // A vitest worker transforms the import itself (vite); its env, which child processes and
  // worker threads inherit, says nothing about them, so the worker's own global is asked.
  if ('__vitest_worker__' in globalThis) return;
  if (!g[TSX_REGISTERED]) {
    const tsx = (await importUrl(tsxEsmApi())) as { register(): unknown };
    tsx.register();
    g[TSX_REGISTERED] = true;
  }
  if (!g[HOOKS_REGISTERED]) {
    // Registered after tsx, so it runs first and tsx then loads the TypeScript it points at.
    register(`data:text/javascript,${encodeURIComponent(hookSource(entryPoints()))}`);
    g[HOOKS_REGISTERED] = true;
  }
}

/** The file URL of a strategy path, relative paths against `baseDir`. */
export function strategyFileUrl(ref: string, baseDir: string): string {
  if (ref.startsWith('file:')) return new URL(ref).href;
  return pathToFileURL(resolvePath(baseDir, ref)).href;
}

/** Imports a strategy file and returns its definition; errors name the file and say what to fix. */
export async function loadStrategyFile(url: string, shown = url): Promise<StrategyDefinition> {
  const file = fileURLToPath(url);
  if (!existsSync(file)) throw new ConfigError(`strategy file ${shown} not found (looked for ${file})`, { strategy: shown });
  await prepareThread();
  let mod: Record<string, unknown>;
  try {
    mod = (await importUrl(url)) as Record<string, unknown>;
  } catch (e) {
    const why = describeError(e);
    // The two ways a file outside tarang fails before its own code runs: a CommonJS reading of
    // ES-module syntax, and a package its folder does not have.
    const hint = /Cannot use import statement|require\(\) of ES Module|Cannot find module 'tarang|exports is not defined/.test(why)
      ? ' (a strategy file is an ES module: name it .mts/.mjs, or put {"type": "module"} in a package.json beside it)'
      : /Cannot find (?:module|package)/.test(why)
        ? ' (import strategy helpers from tarang/strategy and tarang/indicators, which tarang provides; other packages must be installed beside the file)'
        : '';
    throw new ConfigError(`cannot load strategy file ${shown}: ${why}${hint}`, { strategy: shown });
  }
  const d = mod['definition'] ?? mod['default'];
  if (!isDefinition(d)) {
    throw new ConfigError(`strategy file ${shown} exports no strategy definition: write \`export const definition = defineStrategy({ name, description, params, create })\` (or export it as default)`, { strategy: shown });
  }
  return d;
}

export interface ResolvedStrategy {
  readonly definition: StrategyDefinition;
  /** What another thread or process loads again: the registry name, or the file URL. */
  readonly ref: string;
}

/** A registry name or a strategy file (relative to `baseDir`). */
export async function resolveStrategy(ref: string, baseDir: string = process.cwd()): Promise<ResolvedStrategy> {
  if (!isStrategyPath(ref)) {
    try {
      return { definition: getStrategy(ref), ref };
    } catch {
      throw new ConfigError(`unknown strategy ${JSON.stringify(ref)}; known: ${strategyNames().join(', ')}, or a file such as ./strategies/my-strategy.ts`, { strategy: ref });
    }
  }
  const url = strategyFileUrl(ref, baseDir);
  return { definition: await loadStrategyFile(url, ref), ref: url };
}
