/**
 * The contracts and expiries endpoints (spec 4.5, 7.3, 7.4, 8) as pure functions of a universe and
 * the raw query: each returns the `data` of the answer or a typed client error.
 */
import type { OptionType } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import { istMidnight } from '../../../core/time.js';
import type { ApiResult, RawQuery } from './api-result.js';
import { badRequest, notSupported, ok } from './api-result.js';
import type { Contract, CurrentContractWire, ExpiredChainRowWire, ExpiredContractWire, SearchPage } from './types.js';
import { DerivativeType } from './types.js';
import type { Universe } from './universe.js';

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;
/** Maximum window of the expired search, in years (spec 4.5). */
export const EXPIRED_SEARCH_MAX_YEARS = 5;
/** Maximum window of the expired expiries endpoint, in years (spec 4.5). */
export const EXPIRED_EXPIRIES_MAX_YEARS = 1;

/** GET /market/instruments/search */
export function searchContracts(u: Universe, q: RawQuery): ApiResult<SearchPage<CurrentContractWire>> {
  const base = parseBase(u, q);
  if (!base.ok) return base;
  const f = parseFilters(q);
  if (!f.ok) return f;
  const paging = parsePaging(q);
  if (!paging.ok) return paging;
  const expiries = u.currentExpiries(base.data.symbol).filter((e) => f.data.expiry === undefined || e === f.data.expiry);
  return ok(page(u, base.data.symbol, expiries, f.data, paging.data, currentWire));
}

/** GET /market/instruments/expiries: upcoming expiries, ascending. */
export function listExpiries(u: Universe, q: RawQuery): ApiResult<readonly string[]> {
  const base = parseBase(u, q);
  if (!base.ok) return base;
  return ok([...u.currentExpiries(base.data.symbol)]);
}

/** GET /market/instruments/expired/search */
export function searchExpiredContracts(u: Universe, q: RawQuery): ApiResult<SearchPage<ExpiredContractWire>> {
  const base = parseBase(u, q);
  if (!base.ok) return base;
  const win = parseWindow(q, EXPIRED_SEARCH_MAX_YEARS);
  if (!win.ok) return win;
  const f = parseFilters(q);
  if (!f.ok) return f;
  const paging = parsePaging(q);
  if (!paging.ok) return paging;
  const { from, to } = win.data;
  const expiries = u
    .expiredExpiries(base.data.symbol)
    .filter((e) => e >= from && e <= to && (f.data.expiry === undefined || e === f.data.expiry));
  return ok(page(u, base.data.symbol, expiries, f.data, paging.data, expiredWire));
}

/** GET /market/instruments/expired/expiries: newest first. */
export function listExpiredExpiries(u: Universe, q: RawQuery): ApiResult<readonly string[]> {
  const base = parseBase(u, q);
  if (!base.ok) return base;
  const win = parseWindow(q, EXPIRED_EXPIRIES_MAX_YEARS);
  if (!win.ok) return win;
  const { from, to } = win.data;
  return ok(u.expiredExpiries(base.data.symbol).filter((e) => e >= from && e <= to).reverse());
}

/** GET /market/instruments/expired/contracts: the full chain of one expired expiry, no paging. */
export function expiredContracts(u: Universe, q: RawQuery): ApiResult<readonly ExpiredChainRowWire[]> {
  const base = parseBase(u, q);
  if (!base.ok) return base;
  const expiry = q['expiry'];
  if (expiry === undefined || expiry === '') return badRequest('expiry is required', 'expiry');
  if (!isDate(expiry)) return badRequest(`expiry is invalid: expected YYYY-MM-DD, got ${JSON.stringify(expiry)}`, 'expiry');
  const type = parseInstrumentType(q);
  if (!type.ok) return type;
  // Only a date the expired expiries endpoint can return is accepted (spec 4.5 rule 4).
  if (!u.expiredExpiries(base.data.symbol).includes(expiry)) {
    return badRequest(`expiry ${expiry} is invalid or unknown for underlying ${base.data.symbol}`, 'expiry');
  }
  const rows = u
    .contracts(base.data.symbol, expiry)
    .filter((c) => type.data === undefined || c.instrumentType === type.data)
    .map(chainWire);
  return ok(rows);
}

// ---- parameters ----------------------------------------------------------------------------

interface Filters {
  readonly instrumentType?: DerivativeType;
  readonly expiry?: string;
  readonly strikeFrom?: Paise;
  readonly strikeTo?: Paise;
  readonly optionType?: OptionType;
}

interface Paging {
  readonly page: number;
  readonly pageSize: number;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function isDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  try {
    istMidnight(s);
    return true;
  } catch {
    return false;
  }
}

/** `underlying` and `segment`, in the order a client would fix them. */
function parseBase(u: Universe, q: RawQuery): ApiResult<{ symbol: string }> {
  const underlying = q['underlying'];
  if (underlying === undefined || underlying.trim() === '') return badRequest('underlying is required', 'underlying');
  const segment = q['segment'];
  if (segment === undefined || segment.trim() === '') return badRequest('segment is required', 'segment');
  const seg = segment.trim().toUpperCase();
  if (seg === 'EQUITY') return notSupported('segment EQUITY is not supported; use DERIVATIVE', 'segment');
  if (seg !== 'DERIVATIVE') return badRequest(`segment ${JSON.stringify(segment)} is invalid; use DERIVATIVE`, 'segment');
  const symbol = underlying.trim().toUpperCase();
  if (!u.underlying(symbol)) return badRequest(`underlying ${JSON.stringify(underlying)} is invalid or unknown`, 'underlying');
  return ok({ symbol });
}

function parseInstrumentType(q: RawQuery): ApiResult<DerivativeType | undefined> {
  const t = q['instrument_type'];
  if (t === undefined || t === '') return ok(undefined);
  const up = t.trim().toUpperCase();
  if (!(up in DerivativeType)) return badRequest(`instrument_type ${JSON.stringify(t)} is invalid; use one of OPTIDX, OPTSTK, FUTIDX, FUTSTK`, 'instrument_type');
  return ok(up as DerivativeType);
}

function parseStrike(q: RawQuery, name: 'strike_from' | 'strike_to'): ApiResult<Paise | undefined> {
  const v = q[name];
  if (v === undefined || v === '') return ok(undefined);
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || v.trim() === '') return badRequest(`${name} must be a non-negative number, got ${JSON.stringify(v)}`, name);
  return ok(Math.round(n * 100));
}

function parseFilters(q: RawQuery): ApiResult<Filters> {
  const type = parseInstrumentType(q);
  if (!type.ok) return type;
  const expiry = q['expiry'];
  if (expiry !== undefined && expiry !== '' && !isDate(expiry)) return badRequest(`expiry is invalid: expected YYYY-MM-DD, got ${JSON.stringify(expiry)}`, 'expiry');
  const from = parseStrike(q, 'strike_from');
  if (!from.ok) return from;
  const to = parseStrike(q, 'strike_to');
  if (!to.ok) return to;
  if (from.data !== undefined && to.data !== undefined && from.data > to.data) {
    return badRequest(`strike_from (${q['strike_from']}) must not exceed strike_to (${q['strike_to']})`, 'strike_from');
  }
  const ot = q['option_type'];
  let optionType: OptionType | undefined;
  if (ot !== undefined && ot !== '') {
    const up = ot.trim().toUpperCase();
    if (up !== 'CE' && up !== 'PE') return badRequest(`option_type ${JSON.stringify(ot)} is invalid; use CE or PE`, 'option_type');
    optionType = up;
  }
  return ok({
    ...(type.data !== undefined ? { instrumentType: type.data } : {}),
    ...(expiry ? { expiry } : {}),
    ...(from.data !== undefined ? { strikeFrom: from.data } : {}),
    ...(to.data !== undefined ? { strikeTo: to.data } : {}),
    ...(optionType ? { optionType } : {}),
  });
}

function parsePositiveInt(q: RawQuery, name: string, dflt: number, max?: number): ApiResult<number> {
  const v = q[name];
  if (v === undefined || v === '') return ok(dflt);
  if (!/^\d+$/.test(v.trim())) return badRequest(`${name} must be a positive integer, got ${JSON.stringify(v)}`, name);
  const n = Number(v.trim());
  if (n < 1) return badRequest(`${name} must be at least 1, got ${v}`, name);
  if (max !== undefined && n > max) return badRequest(`${name} must be at most ${max}, got ${v}`, name);
  return ok(n);
}

function parsePaging(q: RawQuery): ApiResult<Paging> {
  const p = parsePositiveInt(q, 'page', 1);
  if (!p.ok) return p;
  const s = parsePositiveInt(q, 'page_size', PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
  if (!s.ok) return s;
  return ok({ page: p.data, pageSize: s.data });
}

/** `expiry_from`/`expiry_to`: both required, ordered, at most `maxYears` apart. */
function parseWindow(q: RawQuery, maxYears: number): ApiResult<{ from: string; to: string }> {
  const from = q['expiry_from'];
  const to = q['expiry_to'];
  if (from === undefined || from === '') return badRequest('expiry_from is required', 'expiry_from');
  if (!isDate(from)) return badRequest(`expiry_from is invalid: expected YYYY-MM-DD, got ${JSON.stringify(from)}`, 'expiry_from');
  if (to === undefined || to === '') return badRequest('expiry_to is required', 'expiry_to');
  if (!isDate(to)) return badRequest(`expiry_to is invalid: expected YYYY-MM-DD, got ${JSON.stringify(to)}`, 'expiry_to');
  if (from > to) return badRequest(`expiry_from (${from}) must not be after expiry_to (${to})`, 'expiry_from');
  if (to > addYears(from, maxYears)) {
    return badRequest(`expiry window ${from}..${to} is longer than ${maxYears} year${maxYears > 1 ? 's' : ''}`, 'expiry_to');
  }
  return ok({ from, to });
}

/** Same month and day `years` later (29 February becomes 28 February). */
function addYears(date: string, years: number): string {
  const y = Number(date.slice(0, 4)) + years;
  const md = date.slice(5);
  const candidate = `${y}-${md}`;
  return isDate(candidate) ? candidate : `${y}-02-28`;
}

// ---- selection and paging -------------------------------------------------------------------

/** Rule 3: strike and option-type filters narrow options only; futures pass them untouched. */
function matches(c: Contract, f: Filters): boolean {
  if (f.instrumentType !== undefined && c.instrumentType !== f.instrumentType) return false;
  if (c.strike === null) return true;
  if (f.strikeFrom !== undefined && c.strike < f.strikeFrom) return false;
  if (f.strikeTo !== undefined && c.strike > f.strikeTo) return false;
  if (f.optionType !== undefined && c.optionType !== f.optionType) return false;
  return true;
}

/**
 * One page over the matches of several expiries (ascending), counting every match but building
 * wire rows only for the page: five years of NIFTY weeklies are over 100,000 contracts.
 */
function page<T>(u: Universe, symbol: string, expiries: readonly string[], f: Filters, p: Paging, wire: (c: Contract) => T): SearchPage<T> {
  const first = (p.page - 1) * p.pageSize;
  const last = first + p.pageSize;
  let count = 0;
  const rows: T[] = [];
  for (const e of expiries) {
    for (const c of u.contracts(symbol, e)) {
      if (!matches(c, f)) continue;
      if (count >= first && count < last) rows.push(wire(c));
      count++;
    }
  }
  return { count, page: p.page, page_size: p.pageSize, instruments: rows };
}

function rupees(p: Paise | null): number | null {
  return p === null ? null : p / 100;
}

function currentWire(c: Contract): CurrentContractWire {
  return {
    security_id: c.securityId ?? '',
    trading_symbol: c.tradingSymbol,
    expiry: c.expiry,
    strike_price: rupees(c.strike),
    option_type: c.optionType,
    lot_size: c.lotSize,
  };
}

function expiredWire(c: Contract): ExpiredContractWire {
  return { trading_symbol: c.tradingSymbol, expiry: c.expiry, strike_price: rupees(c.strike), option_type: c.optionType, lot_size: c.lotSize };
}

function chainWire(c: Contract): ExpiredChainRowWire {
  return {
    trading_symbol: c.tradingSymbol,
    instrument_type: c.instrumentType,
    strike_price: rupees(c.strike),
    option_type: c.optionType,
    lot_size: c.lotSize,
    expiry: c.expiry,
  };
}
