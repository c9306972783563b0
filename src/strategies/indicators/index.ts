/** Indicators: small classes, one per file, floats allowed (prices return to paise at the boundary). */
export { SMA } from './sma.js';
export { Cross, CrossDetector } from './cross.js';
