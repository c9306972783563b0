/** Every risk check by name; the risk engine runs the enabled ones in the configured order. */
import type { CheckName } from '../config.js';
import type { RiskCheck } from '../types.js';
import { circuitCheck } from './circuit.js';
import { priceBandCheck } from './price-band.js';
import { dailyLossCheck } from './daily-loss.js';
import { fundsCheck } from './funds.js';
import { instrumentCheck } from './instrument.js';
import { intradayCutoffCheck } from './intraday-cutoff.js';
import { instrumentHoldCheck } from './instrument-hold.js';
import { lotSizeCheck } from './lot-size.js';
import { freezeQtyCheck } from './freeze-quantity.js';
import { maxOpenOrdersCheck } from './max-open-orders.js';
import { maxOrderValueCheck } from './max-order-value.js';
import { maxPositionCheck } from './max-position.js';
import { modificationCapCheck } from './modification-cap.js';
import { orderRateCheck } from './order-rate.js';
import { smartLegBoundsCheck } from './smart-leg-bounds.js';
import { tickSizeCheck } from './tick-size.js';
import { tradingStateCheck } from './trading-state.js';

export const CHECKS: Readonly<Record<CheckName, RiskCheck>> = {
  tradingState: tradingStateCheck,
  instrumentHold: instrumentHoldCheck,
  instrument: instrumentCheck,
  lotSize: lotSizeCheck,
  freezeQty: freezeQtyCheck,
  tickSize: tickSizeCheck,
  circuit: circuitCheck,
  priceBand: priceBandCheck,
  smartLegBounds: smartLegBoundsCheck,
  intradayCutoff: intradayCutoffCheck,
  modificationCap: modificationCapCheck,
  maxOrderValue: maxOrderValueCheck,
  maxPosition: maxPositionCheck,
  maxOpenOrders: maxOpenOrdersCheck,
  orderRate: orderRateCheck,
  funds: fundsCheck,
  dailyLoss: dailyLossCheck,
};

export {
  circuitCheck, dailyLossCheck, freezeQtyCheck, fundsCheck, instrumentCheck, intradayCutoffCheck, instrumentHoldCheck, lotSizeCheck, maxOpenOrdersCheck, maxOrderValueCheck,
  maxPositionCheck, modificationCapCheck, orderRateCheck, priceBandCheck, smartLegBoundsCheck, tickSizeCheck, tradingStateCheck,
};
