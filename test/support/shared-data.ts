/**
 * Real market data lives in ../shared/data (beside the project), which a user's clone does not
 * have. Tests that need it call `sharedData()`: in CI (CI=true) a missing folder fails loudly;
 * elsewhere the suite is skipped with a visible message.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../src/core/paths.js';

export const SHARED_DATA_DIR = resolve(packageRoot(), '..', 'shared', 'data');

export interface SharedData {
  readonly available: boolean;
  /** Absolute path of a file under shared/data. */
  path(rel: string): string;
}

export function sharedData(): SharedData {
  const available = existsSync(SHARED_DATA_DIR);
  if (!available) {
    const msg = `shared market data not found at ${SHARED_DATA_DIR}`;
    if (process.env['CI'] === 'true') throw new Error(`${msg} (required when CI=true)`);
    process.stderr.write(`SKIPPED: ${msg}; tests that need real NSE data are skipped.\n`);
  }
  return { available, path: (rel: string) => join(SHARED_DATA_DIR, rel) };
}
