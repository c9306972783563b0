/**
 * Options side of the simulator: the volatility surface, contract pricing (shared with candles and
 * the market model) and the option-chain endpoints (spec 2.10, 4.3, 4.4).
 *
 *   const chains = new OptionChainService({ universe, history, clock, livePrice: (code) => market.ltp(code) });
 *   const r = chains.chain(request.query);   // GET /market/option-chain
 */
export * from './types.js';
export { VolatilityModel } from './volatility-model.js';
export type { VolatilityModelOptions } from './volatility-model.js';
export { OptionPricer, SIM_RISK_FREE_RATE } from './option-pricer.js';
export type { ContractQuote } from './option-pricer.js';
export { OptionChainService, STRIKE_COUNT_DEFAULT, STRIKE_COUNT_MAX, formatDdMmmYyyy, parseDdMmmYyyy } from './option-chain-service.js';
export type { LiveOptionMarkSource, LivePriceSource, OptionChainServiceOptions } from './option-chain-service.js';
