/**
 * Historical candles of the simulator (spec 4.2, 4.9; wire-gaps "Historical candles"):
 * deterministic OHLCV(+OI) for any current instrument or expired contract, any interval, anchored
 * to 09:15 IST, trading days only, the per-interval maximum range (wider windows truncated).
 * Today's candles come from the live market model when one is attached (`LiveMinuteSource`),
 * else from the same generator.
 *
 *   const h = new HistoryService({ universe, clock });
 *   const rec = new MinuteBarRecorder();            // optional: today's candles = the ticks sent
 *   market.onTick((t) => rec.record(t));  h.setLiveSource(rec);
 *   const r = h.historical('60minute', request.query);  // GET /market/historical/{interval}
 *   r.ok ? reply.send({status:'success', data:r.data}) : reply.code(r.error.httpStatus).send(generalErrorBody(r.error))
 */
export * from './types.js';
export { HistoryService, MAX_SCRIP_CODES_PER_CALL, MAX_TRADING_SYMBOLS_PER_CALL } from './history-service.js';
export type { HistoryServiceOptions } from './history-service.js';
export { CandleGenerator } from './candle-generator.js';
export { aggregate } from './aggregate.js';
export { MinuteBarRecorder } from './minute-bar-recorder.js';
export type { RecordedTick } from './minute-bar-recorder.js';
