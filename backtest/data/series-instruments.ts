/**
 * Instruments for candle series that come without an instrument master (CSV files): the risk
 * layer and the matching engine need a lot size, a tick size and a kind for every instrument.
 * Defaults: NSE cash equity, lot 1, tick 5 paise. An id that looks like a monthly option or future
 * trading symbol (`NIFTY21FEB15000CE`, `BANKNIFTY24JANFUT`, `SENSEX26DEC85000CE`) becomes an F&O
 * contract of its index's exchange (SENSEX and BANKEX: BSE, the BFO segment) or, for any other
 * underlying, an NSE stock contract. Its lot size is the file's when it had one, else the `lotSize`
 * default (`--lot`), else for an index the lot its contracts of that expiry month had
 * (config/market-rules/lot-sizes.yaml): a 2024 NIFTY contract trades in lots of 25 or 50, not
 * today's. A stock contract has no such record (NSE revises stock lots often and per stock), so
 * without a lot from the file or `--lot` it is refused rather than traded in lots of 1. A scrip
 * code with a known instrument (from the adapter's master) should be passed in `known` instead; an
 * F&O scrip code (`NFO_43219`) without one is refused for the same reason.
 */
import { ConfigError } from '../../src/core/errors.js';
import type { Instrument, InstrumentKind, InstrumentLookup } from '../../src/core/instruments.js';
import { indexDerivativeExchange, InstrumentTable, parseScripCode } from '../../src/core/instruments.js';
import type { Paise } from '../../src/core/money.js';
import type { CandleSeries } from './candle-series.js';
import { indexLotSize } from '../../src/risk/rules/lot-sizes.js';

export interface InstrumentDefaults {
  readonly lotSize?: number;
  readonly tickSize?: Paise;
}

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
    const indexExchange = indexDerivativeExchange(base);
    const kind: InstrumentKind = indexExchange ? (optType ? 'OPTIDX' : 'FUTIDX') : optType ? 'OPTSTK' : 'FUTSTK';
    const month = String(MONTH.indexOf(mon) + 1).padStart(2, '0');
    // The symbol names the month, not the day: the lot of a contract expiring at the month's end.
    const lotSize = s.lotSize ?? d.lotSize ?? indexLotSize(base, `20${yy}-${month}-31`);
    if (lotSize === undefined) {
      throw new ConfigError(
        `${id}: the lot size of this ${kind === 'FUTSTK' ? 'stock future' : kind === 'OPTSTK' ? 'stock option' : 'contract'} is not in the data; give --lot N, the lot ${base} contracts of ${mon} 20${yy} traded in (NSE's F&O contract file of that month), or a lot column in the file`,
        { instrument: id },
      );
    }
    return {
      id,
      exchange: indexExchange ?? 'NSE',
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
  if (scrip?.segment === 'FNO') {
    // Its lot, kind and expiry are in the instrument master, not in the candles: lots of 1 as a
    // cash instrument would trade quantities the exchange refuses.
    throw new ConfigError(
      `${id}: an F&O contract named by its scrip code, whose lot size, kind and expiry the data does not give; backtest it with --symbol ${id} (they come from the broker's instrument master of the day) or name the series by its trading symbol (e.g. RELIANCE26DECFUT, with --lot)`,
      { instrument: id },
    );
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
