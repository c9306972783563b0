/**
 * Injected faults: what a real broker does on a bad day, switchable at run time through
 * `POST /sim/faults`. Shares are probabilities drawn from a seeded generator, so a seeded run
 * injects the same faults on the same calls.
 */
import { z } from 'zod';

export const LostAckMode = { TIMEOUT: 'timeout', ERROR: '5xx' } as const;
export type LostAckMode = (typeof LostAckMode)[keyof typeof LostAckMode];

const share = z.number().min(0).max(1);

/** Wire form of `POST /sim/faults`; every member optional, absent members keep their value. */
export const faultPatchSchema = z
  .object({
    /** Added delay before every non-control HTTP answer, ms. */
    latency_ms: z.number().int().min(0).max(120_000),
    /** Share of non-control calls answered 503 without being carried out. */
    error_rate: share,
    /** Share of non-control calls never answered (and not carried out). */
    timeout_rate: share,
    /** Share of order writes carried out whose answer is then lost. */
    lost_ack_rate: share,
    /** How a lost ack looks: no answer at all, or a 5xx. */
    lost_ack_mode: z.enum([LostAckMode.TIMEOUT, LostAckMode.ERROR]),
    /** Close every WebSocket now (abruptly, as a network drop). One-shot. */
    ws_drop: z.boolean(),
    /** Keep WebSockets open but send nothing (no ticks, no heartbeats, no pongs). */
    ws_stall: z.boolean(),
    /** Send each WS message JSON-encoded twice (a string holding JSON). */
    ws_double_encode: z.boolean(),
    /** Batch WS messages into newline-separated frames. */
    ws_batch: z.boolean(),
    /** Send only the tick fields that changed since the last tick of that instrument. */
    ws_partial: z.boolean(),
    /** Order updates with bare numeric order ids and one-letter statuses (observed on the live stream). */
    ws_terse_orders: z.boolean(),
  })
  .partial()
  .strict();
export type FaultPatch = z.infer<typeof faultPatchSchema>;

export interface FaultState {
  latencyMs: number;
  errorRate: number;
  timeoutRate: number;
  lostAckRate: number;
  lostAckMode: LostAckMode;
  wsStall: boolean;
  wsDoubleEncode: boolean;
  wsBatch: boolean;
  wsPartial: boolean;
  wsTerseOrders: boolean;
}

export function noFaults(): FaultState {
  return {
    latencyMs: 0,
    errorRate: 0,
    timeoutRate: 0,
    lostAckRate: 0,
    lostAckMode: LostAckMode.TIMEOUT,
    wsStall: false,
    wsDoubleEncode: false,
    wsBatch: false,
    wsPartial: false,
    wsTerseOrders: false,
  };
}

/** Applies a patch; returns whether a one-shot WS drop was asked for. */
export function applyFaultPatch(state: FaultState, patch: FaultPatch): { wsDrop: boolean } {
  if (patch.latency_ms !== undefined) state.latencyMs = patch.latency_ms;
  if (patch.error_rate !== undefined) state.errorRate = patch.error_rate;
  if (patch.timeout_rate !== undefined) state.timeoutRate = patch.timeout_rate;
  if (patch.lost_ack_rate !== undefined) state.lostAckRate = patch.lost_ack_rate;
  if (patch.lost_ack_mode !== undefined) state.lostAckMode = patch.lost_ack_mode;
  if (patch.ws_stall !== undefined) state.wsStall = patch.ws_stall;
  if (patch.ws_double_encode !== undefined) state.wsDoubleEncode = patch.ws_double_encode;
  if (patch.ws_batch !== undefined) state.wsBatch = patch.ws_batch;
  if (patch.ws_partial !== undefined) state.wsPartial = patch.ws_partial;
  if (patch.ws_terse_orders !== undefined) state.wsTerseOrders = patch.ws_terse_orders;
  return { wsDrop: patch.ws_drop === true };
}

/** The state in wire form (what `GET /sim/faults` answers). */
export function faultStateWire(s: FaultState): Record<string, unknown> {
  return {
    latency_ms: s.latencyMs,
    error_rate: s.errorRate,
    timeout_rate: s.timeoutRate,
    lost_ack_rate: s.lostAckRate,
    lost_ack_mode: s.lostAckMode,
    ws_stall: s.wsStall,
    ws_double_encode: s.wsDoubleEncode,
    ws_batch: s.wsBatch,
    ws_partial: s.wsPartial,
    ws_terse_orders: s.wsTerseOrders,
  };
}
