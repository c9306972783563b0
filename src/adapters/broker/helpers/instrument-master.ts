/**
 * The instrument master (spec 2.3): downloaded once per IST day and source, cached on disk,
 * parsed by the core parser (src/core/instrument-master.ts).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../../core/clock.js';
import { parseInstrumentMaster, type MasterSource, type ParsedMaster } from '../../../core/instrument-master.js';
import { istDate } from '../../../core/time.js';
import type { BrokerClient } from '../client.js';

export interface MasterLoad extends ParsedMaster {
  readonly source: MasterSource;
  readonly fromCache: boolean;
  readonly file?: string;
}

export async function loadInstrumentMaster(client: BrokerClient, clock: Clock, source: MasterSource, cacheDir?: string): Promise<MasterLoad> {
  const file = cacheDir ? join(cacheDir, 'instruments', `${source}-${istDate(clock.now())}.csv`) : undefined;
  let text: string | undefined;
  if (file) {
    try {
      text = await readFile(file, 'utf8');
    } catch {
      text = undefined;
    }
  }
  const fromCache = text !== undefined;
  if (text === undefined) {
    text = await client.instrumentMaster(source);
    if (file) {
      await mkdir(join(file, '..'), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, file);
    }
  }
  const parsed = parseInstrumentMaster(text, source, { sourceName: file ?? `GET /market/instruments?source=${source}` });
  return { ...parsed, source, fromCache, ...(file ? { file } : {}) };
}
