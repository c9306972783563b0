/**
 * The backtester's public API (see README.md): one call (`backtest`), the pieces it is made of,
 * and the loaders.
 */
export { backtest, type BacktestRequest, type BacktestOutcome } from './backtest.js';
export { runBacktest, BacktestSettingsSchema, type BacktestInput, type BacktestRun, type BacktestSettings, type DenialSummary } from './runner.js';
export { BacktestVenue, toVenueFill, toVenueOrderState } from './venue.js';
export * from './data/candle-series.js';
export { loadCsvCandles, parseCsvCandles, type CsvLoadOptions, type CsvLoadResult } from './data/csv-candles.js';
export { loadBrokerCandles, seriesFromWire, type BrokerCandleRequest } from './data/broker-source.js';
export { resolveExpiredContracts, parseTradingSymbol } from './data/expired-contracts.js';
export { instrumentForSeries, instrumentsForSeries, type InstrumentDefaults } from './data/series-instruments.js';
export { mergeSeries, type MergedOrder } from './data/merge.js';
export { describeSummary, type LoadSummary } from './data/load-summary.js';
export { SessionFilter, BarLabel } from './data/clean-series.js';
export * from './charges/index.js';
export * from './metrics/index.js';
export * from './report/index.js';
export * from './sweep/index.js';
