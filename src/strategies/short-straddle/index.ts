/** `short-straddle`: ATM NIFTY straddle sold at a set time with per-leg stops (see short-straddle.ts), on top of src/strategies/options/. */
export { shortStraddle, stopTrigger } from './short-straddle.js';
export { shortStraddleParams, type ShortStraddleParams, type ShortStraddleParamsInput } from './params.js';
