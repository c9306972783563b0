/**
 * Options for strategies, the daemon, the CLI and the backtester: the option-data protocol a
 * strategy declares (chains it needs, the view it reads), expiry selection, chains built from the
 * broker's wire or from expired-contract candles, and greeks computed locally when the broker sends
 * none. Platform code: `short-straddle` is one example built on it.
 */
export * from './option-data.js';
export { selectExpiry, isMonthlyExpiry, type ExpiryChoice } from './expiry-select.js';
export { legGreeks, type LegGreeks, type LocalGreeksModel } from './leg-greeks.js';
export { chainFromWire, OptionChainDecodeError, type ChainWireContext } from './chain-from-wire.js';
export { chainFromCandles, type ChainFromCandlesInput, type ExpiredContractRow } from './chain-from-candles.js';
export { OptionDataFeed, withOptionData, type CandleChains } from './option-data-feed.js';
