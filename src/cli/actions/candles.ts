/** What `tarang candles` does (declared in ../commands/candles.ts). */
import { writeFile } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { print, rupees, table, withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { candleWindows, fetchCandleRange } from '../../adapters/broker/helpers/candles.js';
import { InputException } from '../../adapters/broker/errors.js';
import { CandleCatalog, defaultCatalogDir } from '../../adapters/catalog/index.js';
import { ALL_INTERVALS, isInterval } from '../../core/candles.js';
import { parseScripCode } from '../../core/instruments.js';
import { InstrumentNames } from '../instrument-names.js';
import { formatRupees } from '../../core/money.js';
import { DAY_MS, formatIst } from '../../core/time.js';
import { parseIstDate } from '../../core/date-input.js';

interface Flags extends ConnectionFlags {
  interval: string;
  from: string;
  to: string;
  csv?: string;
  catalog?: string;
  cache: boolean;
}

function day(v: string, name: string): number {
  try {
    return parseIstDate(v);
  } catch {
    throw new InputException(`--${name}: expected a date as YYYY-MM-DD, got ${JSON.stringify(v)}`, { field: name });
  }
}

export async function candles(codeArg: string, f: Flags): Promise<void> {
  const given = codeArg.toUpperCase().replace(':', '_');
  if (!isInterval(f.interval)) throw new InputException(`--interval: expected one of ${ALL_INTERVALS.join(', ')}, got ${JSON.stringify(f.interval)}`, { field: 'interval' });
  const interval = f.interval;
  const from = day(f.from, 'from');
  const to = day(f.to, 'to') + DAY_MS;
  if (!(to > from)) throw new InputException('--to must not be before --from', { field: 'to' });
  await withBroker(f, async (b) => {
    // A scrip code is used as given (no instrument master needed); a symbol is looked up.
    const code = parseScripCode(given) ? given : (await new InstrumentNames(b).resolve(codeArg)).code;
    const total = candleWindows(interval, from, to).length;
    const bar = process.stderr.isTTY && total > 1 ? new cliProgress.SingleBar({ format: 'candles [{bar}] {value}/{total} calls, eta {eta_formatted}', stream: process.stderr, clearOnComplete: true }, cliProgress.Presets.shades_classic) : undefined;
    bar?.start(total, 0);
    const catalog = f.cache ? new CandleCatalog(f.catalog ?? defaultCatalogDir()) : undefined;
    try {
      const r = await fetchCandleRange(b.client, b.clock, { code, interval, from, to, ...(catalog ? { catalog } : {}), onProgress: (done) => bar?.update(done) });
      bar?.stop();
      if (f.csv) {
        const lines = ['time,open,high,low,close,volume', ...r.candles.map((c) => [formatIst(c.start), formatRupees(c.open), formatRupees(c.high), formatRupees(c.low), formatRupees(c.close), c.volume].join(','))];
        await writeFile(f.csv, `${lines.join('\n')}\n`);
        process.stderr.write(`${r.candles.length} candles written to ${f.csv} (${r.calls} calls, ${r.cacheHits} from the catalog)\n`);
        return;
      }
      print(f, r.candles, () =>
        table(r.candles.map((c) => ({ time: formatIst(c.start).slice(0, 16).replace('T', ' '), open: rupees(c.open), high: rupees(c.high), low: rupees(c.low), close: rupees(c.close), volume: c.volume }))) +
        `${r.candles.length} candles (${r.calls} calls, ${r.cacheHits} from the catalog)\n`,
      );
    } finally {
      bar?.stop();
      catalog?.close();
    }
  });
}
