/**
 * Instruments for candle series that come without an instrument master (CSV files): the risk
 * layer and the matching engine need a lot size, a tick size and a kind for every instrument.
 * Defaults: NSE cash equity, lot 1, tick 5 paise. An id that looks like an NSE option or future
 * trading symbol (`NIFTY21FEB15000CE`, `BANKNIFTY24JANFUT`) becomes an F&O contract, with the lot
 * size read from the file when it had one, else the `lotSize` default, else for an index the lot
 * its contracts of that expiry month had (config/market-rules/lot-sizes.yaml): a 2024 NIFTY
 * contract trades in lots of 25 or 50, not today's. A scrip code with a known instrument (from the
 * adapter's master) should be passed in `known` instead.
 */
import { ConfigError } from '../../src/core/errors.js';
import type { Instrument, InstrumentKind, InstrumentLookup } from '../../src/core/instruments.js';
import { InstrumentTable, parseScripCode } from '../../src/core/instruments.js';
import type { Paise } from '../../src/core/money.js';
import type { CandleSeries } from './candle-series.js';
import { indexLotSize } from '../../src/risk/rules/lot-sizes.js';

export interface InstrumentDefaults {
  readonly lotSize?: number;
  readonly tickSize?: Paise;
}

const INDEX_NAMES = new Set(['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY', 'SENSEX', 'BANKEX', 'NIFTYNXT50', 'SENSEX50']);
const DERIVATIVE = /^([A-Z0-9&-]+?)(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(?:(\d+(?:\.\d+)?)(CE|PE)|FUT)$/;
const MONTH = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

export function instrumentForSeries(s: CandleSeries, d: InstrumentDefaults = {}): Instrument {
  const tickSize = d.tickSize ?? 5;
  if (!Number.isSafeInteger(tickSize) || tickSize <= 0) throw new ConfigError(`--tick must be a positive number of paise, got ${tickSize}`, { tickSize });
  const id = s.instrument;
  const m = DERIVATIVE.exec(id);
  const scrip = parseScripCode(id);
  if (m) {
    const [, base = '', yy = '', mon = '', strike, optType] = m;
    const kind: InstrumentKind = INDEX_NAMES.has(base) ? (optType ? 'OPTIDX' : 'FUTIDX') : optType ? 'OPTSTK' : 'FUTSTK';
    const month = String(MONTH.indexOf(mon) + 1).padStart(2, '0');
    // The symbol names the month, not the day: the lot of a contract expiring at the month's end.
    const lotSize = s.lotSize ?? d.lotSize ?? indexLotSize(base, `20${yy}-${month}-31`) ?? 1;
    return {
      id,
      exchange: 'NSE',
      segment: 'FNO',
      securityId: id,
      kind,
      tradingSymbol: id,
      symbol: base,
      lotSize,
      tickSize,
      // The expiry day is not in the symbol; the month is (day 01 marks "unknown day").
      expiry: `20${yy}-${month}-01`,
      ...(strike !== undefined ? { strike: Math.round(Number(strike) * 100) } : {}),
      ...(optType === 'CE' || optType === 'PE' ? { optionType: optType } : {}),
    };
  }
  return {
    id,
    exchange: scrip?.exchange ?? 'NSE',
    // An index series is traded as if it were a cash instrument (a proxy): the matching engine
    // refuses orders in indices.
    segment: scrip && scrip.segment !== 'INDEX' ? scrip.segment : 'EQUITY',
    securityId: scrip?.securityId ?? id,
    kind: 'EQUITY',
    tradingSymbol: id,
    symbol: id,
    lotSize: s.lotSize ?? d.lotSize ?? 1,
    tickSize,
  };
}

/** The instruments of a run: `known` ones (from the master) win over ones derived from series. */
export function instrumentsForSeries(series: readonly CandleSeries[], d: InstrumentDefaults = {}, known?: InstrumentLookup): InstrumentTable {
  const t = new InstrumentTable();
  for (const s of series) t.add(known?.get(s.instrument) ?? instrumentForSeries(s, d));
  return t;
}
