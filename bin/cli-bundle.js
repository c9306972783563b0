// The `tarang` command as one esbuild bundle of dist/ (dist/cli/main-<hash>.cjs), which the bin
// runs through bin/cli-loader.js with V8's code cache.
//
// Why: dist/ file by file is ~290 ES modules for a plain `tarang backtest` before its first candle,
// and the packages it imports add ~330 CommonJS files (rxjs alone ~220, yaml ~70, pino ~30) and
// ~95 zod modules. Node resolves, reads and compiles each on its own: most of the 0.4 s before the
// CSV was opened. One file is read once, and being a script (CommonJS), unlike an ES module on
// Node 20, it can be compiled from V8's code cache (cli-loader.js): start-up then parses nothing.
//
// What: dist/src/cli/cli.js (`runCli`) with everything it imports, each command's action included
// but still loaded lazily (esbuild wraps a module reached only by `import()` in a function that
// runs on the first import, so an unused action costs a scan of its text, or nothing from the
// cache). Bundled are our modules and the packages start-up always pays for (BUNDLED_PACKAGES, with
// what they import); every other package stays a `require` resolved at run time, as from dist/:
// native ones (DuckDB), ones that read their own files at run time (bullmq's Lua scripts), and the
// large ones only the long-running commands load (fastify, ws, undici, ioredis).
//
// How it stays correct:
//  - Each module keeps its own `import.meta.url` (the dist/ file it was compiled to), so a module
//    that finds files beside itself (config/ through src/core/paths.ts, sweep workers, strategy
//    files' `tarang/*`) behaves as when loaded from dist/ on its own. Other `import.meta` members
//    do not exist in a script: a module using one fails the build (IMPORT_META_OK lists the one
//    use, worker-entry.ts's tsx path, which runs only from the sources), so it cannot fail at run time.
//  - Strict mode, as ES modules have (esbuild's CommonJS output says so); class and function names
//    stay as written (`keepNames`): error names and reports must not change because two modules'
//    `Foo`s were renamed apart. Only whitespace and comments are minified, not names. (A stack
//    trace points into the bundle; TARANG_BUNDLE=0 runs dist/ file by file, with source maps.)
//  - Content-addressed (`main-<hash>.cjs`) and only ever added: a process still running an older
//    build keeps its file, and a code cache is never applied to another text (V8 checks only the
//    length). The stamp (bin/dist-build.js) names the current build; a build superseded more than
//    KEEP_SUPERSEDED_MS ago is removed, with its code caches (cli-loader.js), on a later build.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_DIR } from './dist-stamp.js';

// The stamp check (dist-stamp.js) finds the bundle without loading this module.
export { BUNDLE_DIR, bundleEntry } from './dist-stamp.js';

/** The entry, in dist/: exports `runCli(argv)`. */
const ENTRY = 'src/cli/cli.js';
/** Packages bundled (with everything they import): the ones start-up loads, and ES-module-only ones (a script cannot require those on Node 20). */
const BUNDLED_PACKAGES = new Set(['zod', 'rxjs', 'yaml', 'pino', 'commander', 'luxon', 'trading-signals']);
/**
 * Packages whose ES-module build (this `exports` condition) is bundled instead of the CommonJS one
 * Node's `node` condition picks: the same release, but esbuild keeps only what we import of an ES
 * module (rxjs: `Observable`, `Subscription`, `Subject`, a few operators, of some 220 modules).
 */
const ES_MODULE_BUILDS = { rxjs: 'es2015' };
/** dist/ files that may use `import.meta` members other than `url` (see the file comment). */
const IMPORT_META_OK = new Set(['dist/backtest/sweep/worker-entry.js']);
/** The one module whose `import()` takes a computed specifier (see importsPlugin). */
const IMPORT_URL = 'dist/src/core/import-url.js';
/** `import(` followed by anything but a string literal: a specifier computed at run time. */
const COMPUTED_IMPORT = /\bimport\s*\(\s*[^'"\s)]/;
/** dist/ files whose computed `import(` is text, not code (worker-entry.ts: the code a worker thread evaluates). */
const COMPUTED_IMPORT_OK = new Set(['dist/backtest/sweep/worker-entry.js']);
/** What the bin's loader passes the bundle: its own `import()` (cli-loader.js). */
const IMPORT_NAME = '__tarangImport';
/** How long files of a superseded build are kept for processes still running it. */
const KEEP_SUPERSEDED_MS = 24 * 3_600_000;
/** The identifier `import.meta.url` becomes; each module declares its own (see moduleUrls). */
const URL_NAME = '__tarangModuleUrl';

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The file of `spec` (`rxjs`, `rxjs/operators`) in its package's `condition` build, if it has one. */
function esModuleBuild(spec, condition, resolveDir) {
  const name = packageOf(spec);
  const pkgFile = createRequire(join(resolveDir, 'x.js')).resolve(`${name}/package.json`);
  const exports = JSON.parse(readFileSync(pkgFile, 'utf8')).exports ?? {};
  const target = exports[`.${spec.slice(name.length)}`]?.[condition];
  return typeof target === 'string' ? join(dirname(pkgFile), target) : undefined;
}

/** Bare imports from our modules: bundled when listed in BUNDLED_PACKAGES, else left to Node. */
const packagesPlugin = {
  name: 'tarang-bundled-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const name = packageOf(args.path);
      // Any import of rxjs, ours or a package's, gets the one build: two copies would not share state.
      const condition = ES_MODULE_BUILDS[name];
      const esm = condition && esModuleBuild(args.path, condition, args.resolveDir);
      if (esm) return { path: esm };
      // A bundled package's own imports are bundled with it.
      if (args.importer.includes('/node_modules/')) return undefined;
      return BUNDLED_PACKAGES.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * `import.meta.url` is defined as URL_NAME, and every module that mentions it declares URL_NAME
 * as its own file URL: esbuild renames the declarations apart as it joins the modules, each use
 * binding to its own module's. (A text replacement would also rewrite the words inside strings.)
 */
const moduleUrls = {
  name: 'tarang-module-urls',
  setup(build) {
    // Node 20 loses a script's own `import()` once V8's code cache compiled it ("A dynamic import
    // callback was not specified"): imports computed at run time (strategy files) go through
    // src/core/import-url.ts, which here calls the loader's `import()` instead, and any other
    // computed `import()` in our code fails the build rather than a run.
    build.onLoad({ filter: /[\\/]dist[\\/]src[\\/]core[\\/]import-url\.js$/ }, () => ({ contents: `export function importUrl(url) { return ${IMPORT_NAME}(url); }`, loader: 'js' }));
    // zod's `z.locales` (its messages in some 50 languages, 40% of zod's code) is exported from
    // the `z` object, so no bundler can leave it out, and nothing in tarang reads it: only English,
    // which zod's schemas import directly. (A strategy file's `z` is not this one: it is
    // dist/'s, from node_modules, with every locale.)
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({ contents: "export { default as en } from './en.js';", loader: 'js', resolveDir: dirname(args.path) }));
    build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const file = relative(build.initialOptions.absWorkingDir, args.path);
      if (file.startsWith('dist/') && file !== IMPORT_URL && !COMPUTED_IMPORT_OK.has(file) && COMPUTED_IMPORT.test(text)) {
        throw new Error(`${file}: import() of a specifier computed at run time; use importUrl (src/core/import-url.ts), which the bundle can route`);
      }
      if (!text.includes('import.meta.url')) return undefined;
      return { contents: `const ${URL_NAME} = ${JSON.stringify(pathToFileURL(args.path).href)};\n${text}`, loader: 'js' };
    });
  },
};

/** Whether Node loads `file` as an ES module (.mjs, or .js under a package.json of type module). */
function isEsModule(file) {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) return JSON.parse(readFileSync(pkg, 'utf8')).type === 'module';
    if (dirname(dir) === dir) return false;
  }
}

/** A package the bundle `require`s must resolve and be CommonJS (Node 20 cannot `require` an ES module). */
function checkRequirable(root, spec) {
  let file;
  try {
    file = createRequire(join(root, 'dist', BUNDLE_DIR, 'x.cjs')).resolve(spec);
  } catch (e) {
    throw new Error(`${spec}: the bundle requires it and it cannot be resolved (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`, { cause: e });
  }
  if (isEsModule(file)) throw new Error(`${spec}: an ES-module-only package, which the bundle cannot require; add it to BUNDLED_PACKAGES (bin/cli-bundle.js)`);
}

function writeNew(file, data) {
  if (existsSync(file)) return; // content-addressed: the same name holds the same bytes
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/**
 * Bundles dist/ into dist/cli/ and returns the build, `{ entry }` (a name within dist/cli/), or
 * null when dist/ has no CLI entry to bundle. `previous` is the build the stamp named until now:
 * it is marked superseded now, and builds superseded long ago are removed. Throws when esbuild fails.
 */
export async function buildCliBundle(root, previous) {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, ENTRY))) return null;
  const esbuild = await import('esbuild');
  const outdir = join(dist, BUNDLE_DIR);
  const out = await esbuild.build({
    entryPoints: [join(dist, ENTRY)],
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    keepNames: true,
    // Comments and layout out: a third less text to read and keep. It also leaves the text ASCII
    // (esbuild escapes strings; comments were the rest; a regular expression keeps what it is
    // written with, so ours spell ₹ as \u20B9): Node decodes a non-ASCII file ~20x slower, and V8
    // then holds it as two bytes a character.
    minifyWhitespace: true,
    legalComments: 'none',
    define: { 'import.meta.url': URL_NAME },
    // Every `import()` left (of packages not bundled, e.g. esbuild in worker-entry.ts) becomes a
    // `require`: a script compiled from the cache has no `import()` of its own (see importsPlugin),
    // and each such package is checked below to be one `require` can load.
    supported: { 'dynamic-import': false },
    plugins: [packagesPlugin, moduleUrls],
    outdir,
    entryNames: 'main-[hash]',
    outExtension: { '.js': '.cjs' },
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  for (const output of Object.values(out.metafile.outputs)) {
    for (const im of output.imports) if (im.external && !isBuiltin(im.path)) checkRequirable(root, im.path);
  }
  for (const w of out.warnings) {
    const file = w.location ? relative(root, join(root, w.location.file)) : '';
    if (w.text.includes('import.meta') && !IMPORT_META_OK.has(file)) throw new Error(`${file}: ${w.text}`);
  }
  const main = out.outputFiles.find((f) => f.path.endsWith('.cjs'));
  if (!main) throw new Error('esbuild wrote no main-*.cjs');
  writeNew(main.path, main.contents);
  const build = { entry: relative(outdir, main.path) };
  prune(outdir, build, previous);
  return build;
}

/**
 * Marks `previous` superseded (the time of its files, bundle and code caches: now); removes the
 * files of builds superseded long ago. A file belongs to the build its name starts with.
 */
function prune(outdir, current, previous) {
  const now = new Date();
  const buildOf = (f) => `${f.split('.')[0]}.cjs`;
  for (const f of readdirSync(outdir)) {
    const build = buildOf(f);
    if (build === current.entry) continue;
    const path = join(outdir, f);
    try {
      if (build === previous?.entry) utimesSync(path, now, now);
      else if (now.getTime() - statSync(path).mtimeMs > KEEP_SUPERSEDED_MS) rmSync(path, { force: true });
    } catch {
      // Removed meanwhile by another build.
    }
  }
}
