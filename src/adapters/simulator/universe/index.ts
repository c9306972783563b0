/**
 * The simulator's instrument universe (issue 3): a deterministic synthetic universe of NSE/BSE
 * equities, indices and derivatives (current and five years of expired contracts), the instrument
 * master CSVs (spec 2.3) and the contracts/expiries endpoints (spec 4.5) as pure functions.
 *
 * Usage from the server:
 *   const u = Universe.build({ seed, today: '2026-11-20', calendar: nseCalendar() });
 *   reply.type('text/csv').send(u.masterCsv('fno'));
 *   const r = searchContracts(u, request.query);   // r.ok ? {status:'success', data:r.data} : contractsErrorBody(r.error)
 */
export * from './api-result.js';
export * from './types.js';
export { Universe } from './universe.js';
export { describeContract, priceBandTick } from './instrument-rows.js';
export { INDEX_MASTER_COLUMNS, MASTER_COLUMNS, MASTER_SEGMENT } from './master-csv.js';
export { ANCHOR_DATE } from './reference-data.js';
export {
  EXPIRED_EXPIRIES_MAX_YEARS,
  EXPIRED_SEARCH_MAX_YEARS,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  expiredContracts,
  listExpiredExpiries,
  listExpiries,
  searchContracts,
  searchExpiredContracts,
} from './contracts.js';
