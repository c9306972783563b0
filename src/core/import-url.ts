/**
 * `import()` of a module known only at run time (a strategy file, tsx's loader): every such import
 * goes through here. The `tarang` bin runs a bundle that is a script compiled from V8's code cache
 * (bin/cli-bundle.js), and Node 20 loses a script's own `import()` once the cache compiled it, so
 * the bundle replaces this module with the bin's `import()` (a bundle that still holds an
 * `import()` of a computed specifier elsewhere is not built).
 */
export function importUrl(url: string): Promise<unknown> {
  return import(url);
}
