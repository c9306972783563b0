/** `short-straddle`: ATM NIFTY straddle sold at a set time with per-leg stops (see short-straddle.ts), and the option-data protocol it uses. */
export { shortStraddle, stopTrigger } from './short-straddle.js';
export { shortStraddleParams, type ShortStraddleParams, type ShortStraddleParamsInput } from './params.js';
export * from './option-data.js';
export { selectExpiry, isMonthlyExpiry } from './expiry-select.js';
export { legGreeks, type LegGreeks, type LocalGreeksModel } from './leg-greeks.js';
export { chainFromWire, OptionChainDecodeError, type ChainWireContext } from './chain-from-wire.js';
export { chainFromCandles, type ChainFromCandlesInput, type ExpiredContractRow } from './chain-from-candles.js';
export { OptionDataFeed, withOptionData, type CandleChains } from './option-data-feed.js';
