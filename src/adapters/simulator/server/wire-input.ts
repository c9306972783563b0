/**
 * Shared pieces of wire input parsing: rupee prices to paise (naming the field), venue errors to
 * the broker's error envelope, and the order-write answer with the "lost ack" fault.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Exchange, Segment } from '../../../core/enums.js';
import { scripCode } from '../../../core/instruments.js';
import { parsePaise, type Paise } from '../../../core/money.js';
import { PriceError } from '../../../core/errors.js';
import { isVenueError } from '../matching/errors.js';
import { ErrorType, SimApiError, inputError } from './api-error.js';
import type { SimContext } from './context.js';

/** A rupee amount on the wire: a number or a decimal string. */
export const wirePrice = z.union([z.number(), z.string().min(1)], { error: 'expected a price (number or decimal string)' });
/** Security ids are strings on the wire; integers are tolerated. */
export const wireSecurityId = z
  .union([z.string().regex(/^\d+$/, 'expected a numeric id string'), z.number().int().nonnegative()], { error: 'expected a numeric id string' })
  .transform(String);
export const wireQty = z.number({ error: 'expected a positive integer' }).int('expected a positive integer').positive('expected a positive integer');

export function toPaise(value: number | string | undefined, field: string): Paise | undefined {
  if (value === undefined) return undefined;
  try {
    const p = parsePaise(value, field);
    if (p <= 0) throw inputError(`${field}: must be greater than 0`);
    return p;
  } catch (e) {
    if (e instanceof PriceError) throw inputError(e.message);
    throw e;
  }
}

/** Orders name the segment EQUITY/FNO/CURRENCY; modify/cancel/positions say DERIVATIVE for FNO. */
export function orderScrip(ctx: SimContext, exchange: Exchange, segment: Segment | 'DERIVATIVE', securityId: string): string {
  const seg: Segment = segment === 'DERIVATIVE' ? 'FNO' : segment;
  const code = scripCode(exchange, seg, securityId);
  const inst = ctx.venue.instrument(code);
  if (!inst) throw inputError(`security_id: ${securityId} is not a ${exchange} ${segment} instrument in the instrument master`);
  if (inst.segment === 'INDEX') throw inputError(`security_id: ${securityId} is an index and cannot be traded`);
  return code;
}

/** Runs a venue call, turning its coded errors into the broker's error envelope. */
export function venueCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isVenueError(e)) {
      const status = e.errorType === 'NotFoundException' ? 404 : 400;
      const type = e.errorType === 'NotFoundException' ? ErrorType.NOT_FOUND : e.errorType === 'OrderException' ? ErrorType.ORDER : ErrorType.INPUT;
      throw new SimApiError(status, e.message, { kind: 'envelope', errorType: type });
    }
    throw e;
  }
}

/**
 * Answers an order write that was carried out. With the "lost ack" fault the order stays placed
 * (modified, cancelled) but the client never hears it: no answer at all, or a 5xx.
 */
export function answerWrite(ctx: SimContext, request: FastifyRequest, reply: FastifyReply, data: unknown): FastifyReply {
  const f = ctx.faults;
  if (f.lostAckRate > 0 && ctx.random() < f.lostAckRate) {
    ctx.log.info({ path: request.url }, 'order ack dropped (injected fault)');
    if (f.lostAckMode === 'timeout') {
      ctx.held.hold(request, reply);
      return reply;
    }
    return reply.code(502).send({ status: 'error', message: 'Bad gateway (injected fault)', error_code: 'NetworkException', error_type: 'NetworkException' });
  }
  return reply.send({ status: 'success', data });
}
