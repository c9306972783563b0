/**
 * The risk layer: `checks/` holds one pure check per file (`(intent, state) => OK | Denial`),
 * `risk-engine.ts` runs the enabled ones in order, publishes `denied` events and holds the trading
 * state and the kill switch; `config.ts` is the zod schema with the documented defaults.
 */
export { RiskEngine, type RiskEngineOptions, type RiskSources } from './risk-engine.js';
export {
  RiskConfigSchema, RiskConfigPaiseSchema, parseRiskConfig, ALL_CHECKS, CheckName, TradingState, type RiskConfig, type RiskConfigInput,
} from './config.js';
export { CHECKS } from './checks/index.js';
export { OK, type CheckResult, type Denial, type RiskCheck, type RiskState, type CircuitBand } from './types.js';
export { orderTerms, type OrderTerms } from './order-terms.js';
