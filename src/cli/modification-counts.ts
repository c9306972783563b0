/**
 * Modifications made by hand, per broker order id, in `<state dir>/manual-orders/modifications.json`,
 * so that the 25-modification cap holds across `tarang order modify` runs even where the broker's
 * order book does not report a count (the live one does not; the simulator does, and the larger
 * of the two counts). Entries older than a week are dropped on write; the file is replaced
 * atomically (temp file, rename).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { istDate } from '../core/time.js';

const KEEP_DAYS = 7;
type Counts = Record<string, { readonly n: number; readonly day: string }>;

export class ModificationCounts {
  private readonly file: string;

  constructor(stateDir: string) {
    this.file = join(stateDir, 'manual-orders', 'modifications.json');
  }

  async read(): Promise<Counts> {
    try {
      const v = JSON.parse(await readFile(this.file, 'utf8')) as unknown;
      return v && typeof v === 'object' ? (v as Counts) : {};
    } catch {
      return {};
    }
  }

  /** Counts one more modification of `orderId` at wall time `now`. */
  async add(orderId: string, now: number): Promise<number> {
    const all = await this.read();
    const today = istDate(now);
    const oldest = istDate(now - KEEP_DAYS * 86_400_000);
    const kept: Counts = Object.fromEntries(Object.entries(all).filter(([, v]) => typeof v?.day === 'string' && v.day >= oldest));
    const n = (kept[orderId]?.n ?? 0) + 1;
    kept[orderId] = { n, day: today };
    await mkdir(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(kept)}\n`, { mode: 0o600 });
    await rename(tmp, this.file);
    return n;
  }
}
