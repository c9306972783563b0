/** Where the adapter caches instrument masters: config, TARANG_CACHE_DIR, XDG, ~/.cache. (Candles go into the catalog, src/adapters/catalog.) */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['TARANG_CACHE_DIR']) return env['TARANG_CACHE_DIR'];
  return join(env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'tarang');
}
