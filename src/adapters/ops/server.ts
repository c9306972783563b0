/**
 * The daemon's operations endpoint (fastify, loopback by default):
 * - `GET /health`: JSON health (trading state, connections, last tick age, reconciled); HTTP 200
 *   when `ok` or `degraded`, 503 when `down`, so a supervisor can probe it.
 * - `GET /metrics`: Prometheus text.
 * - `GET /control/status`, `POST /control/halt|resume|flatten`: the authenticated control API used
 *   by `tarang ctl`; `Authorization: Bearer <token>`, compared in constant time. The token is never
 *   logged (fastify's own logger is off; tarang's log redacts it).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fastify, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TarangError, describeError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { DaemonMetrics } from './metrics.js';
import { formatZodIssues } from '../../core/zod-issues.js';

export class OpsServerError extends TarangError {
  readonly code = 'OPS_SERVER' as const;
}

export const HealthStatus = { OK: 'ok', DEGRADED: 'degraded', DOWN: 'down' } as const;
export type HealthStatus = (typeof HealthStatus)[keyof typeof HealthStatus];

export interface HealthReport {
  readonly status: HealthStatus;
  /** active | reducing | halted (the risk layer's trading state). */
  readonly tradingState: string;
  /** True once start-up reconciliation with the broker finished. */
  readonly reconciled: boolean;
  /** Each connection by lifecycle source; `stalled` while a stall incident lasts (through reconnects). */
  readonly connections: Readonly<Record<string, { readonly connected: boolean; readonly downSinceMs?: number; readonly stalled?: boolean }>>;
  /** Clock ms since the last tick, null before the first. */
  readonly lastTickAgeMs: number | null;
  readonly [extra: string]: unknown;
}

/** What the control API does; the daemon implements it. Results are JSON for `tarang ctl`. */
export interface ControlHandler {
  status(): Promise<Record<string, unknown>> | Record<string, unknown>;
  halt(reason: string): Promise<Record<string, unknown>>;
  resume(): Promise<Record<string, unknown>>;
  flatten(reason: string): Promise<Record<string, unknown>>;
}

const OptionsSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65_535),
  token: z.string().min(16, 'control token must be at least 16 characters'),
});

export interface OpsServerOptions {
  readonly host?: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  readonly token: string;
  readonly health: () => HealthReport;
  readonly metrics: DaemonMetrics;
  readonly control: ControlHandler;
  readonly log?: Logger;
}

const ReasonBody = z.object({ reason: z.string().max(200).optional() }).optional();

export class OpsServer {
  private readonly app: FastifyInstance;
  private readonly host: string;
  private readonly port: number;
  private readonly tokenDigest: Buffer;
  private readonly log: Logger | undefined;
  private address: AddressInfo | undefined;

  constructor(private readonly options: OpsServerOptions) {
    const parsed = OptionsSchema.safeParse({ host: options.host, port: options.port, token: options.token });
    if (!parsed.success) {
      throw new OpsServerError(`ops: ${formatZodIssues(parsed.error, { limit: 1 })}`);
    }
    this.host = parsed.data.host;
    this.port = parsed.data.port;
    this.tokenDigest = digest(parsed.data.token);
    this.log = options.log;
    this.app = fastify({ logger: false, bodyLimit: 16 * 1024 });
    this.routes();
  }

  /** Starts listening; resolves with the bound port. */
  async start(): Promise<number> {
    try {
      await this.app.listen({ host: this.host, port: this.port });
    } catch (e) {
      throw new OpsServerError(`ops: cannot listen on ${this.host}:${this.port}: ${describeError(e)}`, { host: this.host, port: this.port }, { cause: e });
    }
    this.address = this.app.server.address() as AddressInfo;
    this.log?.info({ host: this.host, port: this.address.port }, 'ops endpoint listening (/health, /metrics, /control)');
    return this.address.port;
  }

  get url(): string {
    if (!this.address) throw new OpsServerError('ops: not started');
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.address.port}`;
  }

  async stop(): Promise<void> {
    await this.app.close();
  }

  private routes(): void {
    const { health, metrics, control } = this.options;
    this.app.get('/health', async (_req, reply) => {
      const h = health();
      return reply.code(h.status === 'down' ? 503 : 200).send(h);
    });
    this.app.get('/metrics', async (_req, reply) => reply.header('content-type', metrics.contentType).send(await metrics.text()));

    const guarded = (fn: (req: FastifyRequest) => Promise<Record<string, unknown>> | Record<string, unknown>) => async (req: FastifyRequest, reply: FastifyReply) => {
      if (!this.authorised(req)) {
        this.log?.warn({ ip: req.ip, url: req.url }, 'ops: control request refused (bad or missing token)');
        return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorised' });
      }
      try {
        return reply.send(await fn(req));
      } catch (e) {
        this.log?.error({ err: e, url: req.url }, 'ops: control request failed');
        return reply.code(500).send({ error: describeError(e) });
      }
    };
    const reason = (req: FastifyRequest, fallback: string): string => {
      const body = ReasonBody.safeParse(req.body);
      return (body.success && body.data?.reason) || fallback;
    };
    this.app.get('/control/status', guarded(() => control.status()));
    this.app.post('/control/halt', guarded((req) => control.halt(reason(req, 'operator halt (tarang ctl)'))));
    this.app.post('/control/resume', guarded(() => control.resume()));
    this.app.post('/control/flatten', guarded((req) => control.flatten(reason(req, 'operator flatten (tarang ctl)'))));
  }

  private authorised(req: FastifyRequest): boolean {
    const h = req.headers.authorization;
    if (typeof h !== 'string' || !h.startsWith('Bearer ')) return false;
    // Equal-length digests make the comparison constant-time whatever the presented length.
    return timingSafeEqual(digest(h.slice(7).trim()), this.tokenDigest);
  }
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
