// Runs the CLI bundle (bin/cli-bundle.js) with V8's code cache.
//
// Compiling the bundle's JavaScript was a quarter of a command's start-up. V8 can instead take the
// compiled code from a cache it wrote on an earlier run (`vm.Script` `cachedData`; Node 22's
// `module.enableCompileCache` does this for modules, Node 20 only for scripts, hence a CommonJS
// bundle). A cache holds what one run compiled, so there is one per command (`backtest`, `sim`,
// `--help` and the rest share `main`), Node version and flags, written when that command first
// ends well (a run that stopped at a bad flag or a missing file compiled little of the command)
// and whenever V8 refused the one there. Caches sit beside their bundle in dist/cli/ (the
// package's own folder, never one other users can write: a cache is code) and are named after it,
// whose name is a hash of its content (V8 itself checks only that the text has the length the
// cache was made from); they go when the bundle goes. Where dist/ is read-only the bundle is
// compiled from its text, as fast as before there were caches.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * What a cache is for: the command (a file in dist/src/cli/commands/, else `main`), Node's version,
 * and Node's flags when there are any (V8 refuses a cache made under other flags; without them in
 * the name, runs with and without `--some-flag` would each replace the other's cache).
 */
function cacheKey(root, argv) {
  const cmd = argv[2];
  const command = cmd && /^[a-z][a-z-]{0,30}$/.test(cmd) && existsSync(join(root, 'dist', 'src', 'cli', 'commands', `${cmd}.js`)) ? cmd : 'main';
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
  return `${command}.${process.version}${flags ? `.${fnv1a(flags)}` : ''}`;
}

/** A short hash of a string (FNV-1a, 32 bits, hex): names apart, no need for node:crypto. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

function writeCache(file, data) {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch {
    // Not writable: the next start compiles from the text again.
  }
}

/** Runs `argv` through the bundle `file` of the package at `root`; resolves to the exit code. */
export function runBundle(root, file, argv) {
  const cacheFile = `${file.slice(0, -'.cjs'.length)}.${cacheKey(root, argv)}.v8`;
  let cached;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  // __tarangImport: this module's `import()`, for the bundle's imports computed at run time
  // (src/core/import-url.ts): a script compiled from the cache has none of its own on Node 20.
  const wrapper = `(function (exports, require, module, __filename, __dirname, __tarangImport) {${readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(wrapper, { filename: file, cachedData: cached });
  if (!cached || script.cachedDataRejected) {
    // At exit, so the cache holds everything this run compiled (the command's own code too).
    process.once('exit', (code) => {
      if (code === 0) writeCache(cacheFile, script.createCachedData());
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), (url) => import(url));
  return module.exports.runCli(argv);
}
