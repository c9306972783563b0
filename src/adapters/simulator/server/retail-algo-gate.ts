/**
 * The retail-algo framework at the simulator's door (src/risk/rules/retail-algo.ts): a new order
 * (regular or smart) must carry an algo id of its exchange, and at most the threshold of new
 * orders a second may arrive per exchange segment; the next one is refused with 429 and the rule's
 * words, as the broker refuses it, so a client that does not queue finds out here, not live.
 */
import { algoIdRefusal, exchangeSegment, orderRateRefusal, type AlgoExchange } from '../../../risk/rules/retail-algo.js';
import { ErrorType, SimApiError, inputError } from './api-error.js';
import type { SimContext } from './context.js';

export function admitNewOrder(ctx: SimContext, exchange: AlgoExchange, segment: string, algoId: string): void {
  const badId = algoIdRefusal(exchange, algoId, ctx.retailAlgo.algoIds);
  if (badId) throw inputError(`algo_id: ${badId}`);
  const window = ctx.retailAlgo.window;
  if (!window) return;
  const seg = exchangeSegment(exchange, segment);
  const now = ctx.clock.now();
  if (window.admit(seg, now)) return;
  const retryAfterS = Math.max(1, Math.ceil((window.nextSlot(seg, now) - now) / 1000));
  throw new SimApiError(429, orderRateRefusal(seg, window.perSecond), { kind: 'envelope', errorType: ErrorType.ORDER }, { 'Retry-After': String(retryAfterS) });
}
