/**
 * Expired F&O contracts named by trading symbol (spec 2.6, 4.5) -> Instruments with their real
 * lot size, strike, option type and expiry, looked up through the adapter's expired-contract
 * search. The symbol tells the underlying and roughly when it expired:
 *   monthly  NIFTY24DEC24000CE, NIFTY24DECFUT        (YY MON)
 *   weekly   NIFTY26N0318050CE                       (YY, month code 1-9/O/N/D, DD)
 * and the search over that month (filtered by strike and option type) finds the contract. The
 * search answers without an instrument type (spec 2.6: only the contracts endpoint has one), so
 * index or stock is told by the underlying: SENSEX, BANKEX and the NSE indices are indices, any
 * other underlying a stock. The segment (NFO or BFO) is the one asked for, else the underlying's
 * exchange's (SENSEX and BANKEX: BFO).
 */
import { ConfigError } from '../../src/core/errors.js';
import { indexDerivativeExchange, type Instrument, type InstrumentKind } from '../../src/core/instruments.js';
import type { Paise } from '../../src/core/money.js';
import type { BrokerClient } from '../../src/adapters/broker/client.js';
import { searchExpiredContracts } from '../../src/adapters/broker/helpers/contracts.js';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const MONTHLY = /^([A-Z][A-Z0-9&-]*?)(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(?:(\d+(?:\.\d+)?)(CE|PE)|FUT)$/;
const WEEKLY = /^([A-Z][A-Z&-]*?)(\d{2})([1-9OND])(\d{2})(\d+(?:\.\d+)?)(CE|PE)$/;

export interface ParsedSymbol {
  readonly underlying: string;
  readonly year: number;
  /** 1-12. */
  readonly month: number;
  readonly strike?: number;
  readonly optionType?: 'CE' | 'PE';
}

export function parseTradingSymbol(symbol: string): ParsedSymbol | undefined {
  const m = MONTHLY.exec(symbol);
  if (m) {
    return {
      underlying: m[1]!,
      year: 2000 + Number(m[2]),
      month: MONTHS.indexOf(m[3]!) + 1,
      ...(m[4] !== undefined ? { strike: Number(m[4]), optionType: m[5] as 'CE' | 'PE' } : {}),
    };
  }
  const w = WEEKLY.exec(symbol);
  if (w) {
    const code = w[3]!;
    const month = code === 'O' ? 10 : code === 'N' ? 11 : code === 'D' ? 12 : Number(code);
    return { underlying: w[1]!, year: 2000 + Number(w[2]), month, strike: Number(w[5]), optionType: w[6] as 'CE' | 'PE' };
  }
  return undefined;
}

const KINDS: ReadonlySet<string> = new Set(['OPTIDX', 'OPTSTK', 'FUTIDX', 'FUTSTK']);

export type DerivativeSegment = 'NFO' | 'BFO';

/** The F&O segment of contracts on `underlying`: BFO for BSE's indices, else NFO. */
export function derivativeSegment(underlying: string): DerivativeSegment {
  return indexDerivativeExchange(underlying) === 'BSE' ? 'BFO' : 'NFO';
}

/** The kind of a contract whose answer carried no instrument type: by its underlying and option type. */
export function contractKind(underlying: string, option: boolean, wire?: string): InstrumentKind {
  if (wire !== undefined && KINDS.has(wire)) return wire as InstrumentKind;
  const index = indexDerivativeExchange(underlying) !== undefined;
  return option ? (index ? 'OPTIDX' : 'OPTSTK') : index ? 'FUTIDX' : 'FUTSTK';
}

/** `segment`: as given (`--segment`), else each contract's underlying's (derivativeSegment). */
export async function resolveExpiredContracts(client: BrokerClient, symbols: readonly string[], segment?: DerivativeSegment, tickSize: Paise = 5): Promise<Instrument[]> {
  const out: Instrument[] = [];
  for (const symbol of symbols) {
    const p = parseTradingSymbol(symbol);
    if (!p) throw new ConfigError(`--expired ${symbol}: not an F&O trading symbol (e.g. NIFTY24DEC24000CE, NIFTY24DECFUT, NIFTY26N0318050CE, SENSEX26DEC85000CE)`, { symbol });
    const seg = segment ?? derivativeSegment(p.underlying);
    const mm = String(p.month).padStart(2, '0');
    const last = new Date(Date.UTC(p.year, p.month, 0)).getUTCDate();
    let found: Instrument | undefined;
    for await (const c of searchExpiredContracts(client, {
      underlying: p.underlying,
      segment: 'DERIVATIVE',
      expiryFrom: `${p.year}-${mm}-01`,
      expiryTo: `${p.year}-${mm}-${String(last).padStart(2, '0')}`,
      ...(p.optionType ? { optionType: p.optionType, strikeFrom: p.strike, strikeTo: p.strike } : {}),
      pageSize: 100,
    })) {
      if (c.tradingSymbol !== symbol) continue;
      found = {
        id: symbol,
        exchange: seg === 'NFO' ? 'NSE' : 'BSE',
        segment: 'FNO',
        securityId: symbol,
        kind: contractKind(p.underlying, p.optionType !== undefined, c.instrumentType),
        tradingSymbol: symbol,
        symbol: p.underlying,
        lotSize: c.lotSize,
        tickSize,
        expiry: c.expiry,
        ...(c.strike !== null && c.strike !== undefined ? { strike: c.strike } : {}),
        ...(c.optionType ? { optionType: c.optionType } : {}),
      };
      break;
    }
    if (!found) throw new ConfigError(`--expired ${symbol}: no such expired contract of ${p.underlying} in ${p.year}-${mm}`, { symbol });
    out.push(found);
  }
  return out;
}
