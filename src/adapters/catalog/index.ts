export { CandleCatalog, type ReadRange, type SeriesListing, type WriteOptions, type WriteResult } from './catalog.js';
export { CatalogError } from './catalog-error.js';
export { defaultCatalogDir, monthOf } from './catalog-layout.js';
export { queryCatalog, viewNames, type QueryResult } from './catalog-query.js';
export type { CandleColumnsIn, CatalogSeries } from './candle-columns.js';
