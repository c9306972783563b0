/** Backtest output: the JSON document (backtest-result.ts) and the self-contained HTML report (html-report.ts). */
export * from './backtest-result.js';
export * from './html-report.js';
