/**
 * Where tarang's own files are, whether it runs from src/ (tsx) or dist/src/ (built): the package
 * root is the nearest folder above this module that holds package.json.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`tarang: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** A path inside the package's config/ folder. */
export function configPath(...parts: string[]): string {
  return join(packageRoot(), 'config', ...parts);
}
