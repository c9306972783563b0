/** Indicators: small classes, one per file, floats allowed (prices return to paise at the boundary). */
export { SMA } from './sma.js';
export { Cross, CrossDetector } from './cross.js';
export { CandleIndicator, SessionVwap, TradingSignals, indicators, onCandle, onClose, type CandleInput, type LibraryIndicator, type RupeeCandle } from './library.js';
