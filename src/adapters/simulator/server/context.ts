/**
 * Everything the HTTP and WebSocket shells share: the clock, the account's auth state, limits,
 * faults, the request log, and the venue (market + matching + data) they expose.
 */
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/log.js';
import type { SimCredentials } from '../auth/credentials.js';
import type { StaticIpWhitelist } from '../auth/static-ip.js';
import type { TokenRegistry } from '../auth/token-registry.js';
import type { TokenService } from '../auth/token-service.js';
import type { FaultState } from '../control/faults.js';
import type { ClockControl } from '../control/paced-clock.js';
import type { RequestLog } from '../control/request-log.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { RegisteredAlgoIds, SegmentOrderWindow } from '../../../risk/rules/retail-algo.js';
import type { SimVenue } from './venue.js';
import type { HeldCalls } from './held-calls.js';

/** The single simulated account holder. */
export const SIM_USER_ID = 'SIM0001';

export interface SimContext {
  /** The market clock: every rule of the venue runs on it. */
  readonly clock: Clock;
  /** Wall time: TOTP codes, and the offset the `X-Sim-Clock-Offset-Ms` header reports. */
  readonly wallClock: Clock;
  readonly clockControl: ClockControl;
  readonly log: Logger;
  readonly creds: SimCredentials;
  readonly tokens: TokenRegistry;
  readonly tokenService: TokenService;
  /** Undefined when limits are lifted (benchmarks). */
  readonly limiter: RateLimiter | undefined;
  /** The retail-algo framework: registered algo ids, and new orders per exchange segment (undefined when limits are lifted). */
  readonly retailAlgo: { readonly algoIds: RegisteredAlgoIds; readonly window: SegmentOrderWindow | undefined };
  readonly whitelist: StaticIpWhitelist;
  readonly faults: FaultState;
  readonly random: () => number;
  readonly requests: RequestLog;
  readonly held: HeldCalls;
  readonly venue: SimVenue;
  /** Hooks the WebSocket hub registers (drop/stall faults). */
  readonly wsControl: { dropAll(): number };
}
