/**
 * What each route declares about itself (fastify route `config`): its rate-limit category,
 * whether it needs a live access token, and whether it is an order write (static-IP only, lost
 * acks apply). Hooks read this instead of matching paths.
 */
import type { FastifyRequest } from 'fastify';
import type { RateCategory } from '../limits/rate-category.js';

export interface RouteMeta {
  readonly category?: RateCategory;
  /** Default true. `POST /generate/token` and the control API set false. */
  readonly auth?: boolean;
  /** Order place/modify/cancel, regular and smart. */
  readonly write?: boolean;
  /** A `/sim/` control route: admin key, no faults, no rate limits. */
  readonly control?: boolean;
  /** A control route readable without the admin key (`GET /sim/clock`). */
  readonly open?: boolean;
}

export function routeMeta(request: FastifyRequest): RouteMeta {
  return (request.routeOptions.config ?? {}) as RouteMeta;
}
