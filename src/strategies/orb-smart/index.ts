/** `orb-smart`: opening-range breakout with smart orders and an optional trailing stop (see orb-smart.ts). */
export { orbSmart } from './orb-smart.js';
export { orbSmartParams, type OrbSmartParams, type OrbSmartParamsInput } from './params.js';
export { planEntry, type Breakout, type EntryPlan } from './entry-plan.js';
export { OpeningRange, RangeStatus } from './opening-range.js';
export { trailedStop, type TrailInput } from './trailing-stop.js';
