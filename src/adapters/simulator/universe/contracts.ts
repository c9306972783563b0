/**
 * The contracts and expiries endpoints (spec 4.5, 7.3, 7.4, 8) as pure functions of a universe and
 * the raw query: each returns the `data` of the answer or a typed client error.
 */
import type { ApiResult, RawQuery } from './api-result.js';
import type { CurrentContractWire, ExpiredChainRowWire, ExpiredContractWire, SearchPage } from './types.js';
import type { Universe } from './universe.js';

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;
/** Maximum window of the expired search, in years (spec 4.5). */
export const EXPIRED_SEARCH_MAX_YEARS = 5;
/** Maximum window of the expired expiries endpoint, in years (spec 4.5). */
export const EXPIRED_EXPIRIES_MAX_YEARS = 1;

/** GET /market/instruments/search */
export function searchContracts(_u: Universe, _q: RawQuery): ApiResult<SearchPage<CurrentContractWire>> {
  throw new Error('not implemented');
}

/** GET /market/instruments/expiries: upcoming expiries, ascending. */
export function listExpiries(_u: Universe, _q: RawQuery): ApiResult<readonly string[]> {
  throw new Error('not implemented');
}

/** GET /market/instruments/expired/search */
export function searchExpiredContracts(_u: Universe, _q: RawQuery): ApiResult<SearchPage<ExpiredContractWire>> {
  throw new Error('not implemented');
}

/** GET /market/instruments/expired/expiries: newest first. */
export function listExpiredExpiries(_u: Universe, _q: RawQuery): ApiResult<readonly string[]> {
  throw new Error('not implemented');
}

/** GET /market/instruments/expired/contracts: the full chain of one expired expiry, no paging. */
export function expiredContracts(_u: Universe, _q: RawQuery): ApiResult<readonly ExpiredChainRowWire[]> {
  throw new Error('not implemented');
}
