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
  const add = (name: string, v: Paise | undefined): void => {
    if (v !== undefined) out.push([name, v]);
  };
  switch (intent.kind) {
    case 'place':
      add('limitPrice', intent.limitPrice);
      add('triggerPrice', intent.triggerPrice);
      return { instrument: intent.instrument, prices: out };
    case 'smart':
      add('limitPrice', intent.limitPrice);
      add('triggerPrice', intent.triggerPrice);
      add('triggerLimitPrice', intent.triggerLimitPrice);
      add('stopLoss.triggerPrice', intent.stopLoss?.triggerPrice);
      add('stopLoss.limitPrice', intent.stopLoss?.limitPrice);
      add('target.triggerPrice', intent.target?.triggerPrice);
      add('target.limitPrice', intent.target?.limitPrice);
      add('trailingStep', intent.trailingStep);
      return { instrument: intent.instrument, prices: out };
    case 'modify': {
      const o = state.order(intent.target);
      if (!o) return undefined;
      add('limitPrice', intent.limitPrice);
      add('triggerPrice', intent.triggerPrice);
      return { instrument: o.instrument, prices: out };
    }
    default:
      return undefined;
  }
}
