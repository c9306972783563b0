/** The prices an intent names, each with its field name, for the tick and circuit checks. */
import type { Intent } from '../core/intents.js';
import type { Paise } from '../core/money.js';
import type { RiskState } from './types.js';

export interface IntentPrices {
  readonly instrument: string;
  readonly prices: ReadonlyArray<readonly [string, Paise]>;
}

export function intentPrices(intent: Intent, state: RiskState): IntentPrices | undefined {
  const out: Array<readonly [string, Paise]> = [];
  switch (intent.kind) {
    case 'place':
      if (intent.limitPrice !== undefined) out.push(['limitPrice', intent.limitPrice]);
      if (intent.triggerPrice !== undefined) out.push(['triggerPrice', intent.triggerPrice]);
      return { instrument: intent.instrument, prices: out };
    case 'smart':
      if (intent.limitPrice !== undefined) out.push(['limitPrice', intent.limitPrice]);
      if (intent.triggerPrice !== undefined) out.push(['triggerPrice', intent.triggerPrice]);
      if (intent.triggerLimitPrice !== undefined) out.push(['triggerLimitPrice', intent.triggerLimitPrice]);
      if (intent.stopLoss?.triggerPrice !== undefined) out.push(['stopLoss.triggerPrice', intent.stopLoss?.triggerPrice]);
      if (intent.stopLoss?.limitPrice !== undefined) out.push(['stopLoss.limitPrice', intent.stopLoss?.limitPrice]);
      if (intent.target?.triggerPrice !== undefined) out.push(['target.triggerPrice', intent.target?.triggerPrice]);
      if (intent.target?.limitPrice !== undefined) out.push(['target.limitPrice', intent.target?.limitPrice]);
      if (intent.trailingStep !== undefined) out.push(['trailingStep', intent.trailingStep]);
      return { instrument: intent.instrument, prices: out };
    case 'modify': {
      const o = state.order(intent.target);
      if (!o) return undefined;
      if (intent.limitPrice !== undefined) out.push(['limitPrice', intent.limitPrice]);
      if (intent.triggerPrice !== undefined) out.push(['triggerPrice', intent.triggerPrice]);
      return { instrument: o.instrument, prices: out };
    }
    default:
      return undefined;
  }
}
