/**
 * Posts alerts to an operator's webhook (Slack-compatible: the body has a `text` field). Sending
 * never blocks the caller: `send` queues and returns; one background loop posts in order with a
 * bounded retry policy, and a bounded queue drops the oldest alert (counted, logged) if the hook
 * is down for long. Alerts are notifications, not state: losing one to a dead webhook is logged,
 * never allowed to stall trading.
 */
import { request } from 'undici';
import { z } from 'zod';
import type { AlertEvent } from '../../core/events.js';
import { ConfigError, describeError } from '../../core/errors.js';
import { redact, type Logger } from '../../core/log.js';
import { formatIst } from '../../core/time.js';
import { formatZodIssues } from '../../core/zod-issues.js';

/** Retry policy as data: before attempt n >= 2 the sender waits min(baseDelayMs * 2^(n-2), maxDelayMs). */
export interface WebhookRetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly timeoutMs: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, timeoutMs: 5_000 };

const OptionsSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  retry: z
    .object({
      attempts: z.number().int().min(1).max(20),
      baseDelayMs: z.number().nonnegative(),
      maxDelayMs: z.number().nonnegative(),
      timeoutMs: z.number().int().positive(),
    })
    .default(DEFAULT_WEBHOOK_RETRY),
  maxQueue: z.number().int().positive().default(100),
});

export interface WebhookOptions {
  readonly url: string;
  readonly retry?: WebhookRetryPolicy;
  readonly maxQueue?: number;
  readonly log?: Logger;
  /** Real-time sleep between retries; injectable for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface WebhookBody {
  readonly text: string;
  readonly level: AlertEvent['level'];
  readonly code: string;
  readonly message: string;
  readonly ts: number;
  readonly time: string;
  readonly context?: Readonly<Record<string, unknown>>;
  readonly source: 'tarang';
}

export class WebhookNotifier {
  private readonly url: string;
  private readonly retry: WebhookRetryPolicy;
  private readonly maxQueue: number;
  private readonly log: Logger | undefined;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly queue: WebhookBody[] = [];
  private running: Promise<void> | undefined;
  private sentCount = 0;
  private failedCount = 0;
  private droppedCount = 0;

  constructor(options: WebhookOptions) {
    const parsed = OptionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new ConfigError(`alerts.webhook: ${formatZodIssues(parsed.error, { limit: 1, root: 'url' })}`);
    }
    this.url = parsed.data.url;
    this.retry = parsed.data.retry;
    this.maxQueue = parsed.data.maxQueue;
    this.log = options.log;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref()));
  }

  get stats(): { sent: number; failed: number; dropped: number; queued: number } {
    return { sent: this.sentCount, failed: this.failedCount, dropped: this.droppedCount, queued: this.queue.length };
  }

  /** Queues an alert for posting; returns at once. */
  send(alert: AlertEvent): void {
    if (this.queue.length >= this.maxQueue) {
      this.queue.shift();
      this.droppedCount++;
      this.log?.warn({ dropped: this.droppedCount }, 'alerts webhook: queue full, oldest alert dropped');
    }
    this.queue.push(toBody(alert));
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /** Resolves once every queued alert was posted or given up on (shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let body = this.queue.shift(); body; body = this.queue.shift()) await this.post(body);
  }

  private async post(body: WebhookBody): Promise<void> {
    const r = this.retry;
    let why = '';
    for (let attempt = 1; attempt <= r.attempts; attempt++) {
      if (attempt > 1) await this.sleep(Math.min(r.baseDelayMs * 2 ** (attempt - 2), r.maxDelayMs));
      try {
        const res = await request(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          headersTimeout: r.timeoutMs,
          bodyTimeout: r.timeoutMs,
        });
        await res.body.dump();
        if (res.statusCode < 300) {
          this.sentCount++;
          return;
        }
        why = `HTTP ${res.statusCode}`;
        // A 4xx other than 408/429 will not get better by asking again.
        if (res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429) break;
      } catch (e) {
        why = describeError(e);
      }
    }
    this.failedCount++;
    this.log?.error({ code: body.code, why }, 'alerts webhook: could not deliver alert');
  }
}

function toBody(a: AlertEvent): WebhookBody {
  return {
    text: `[tarang ${a.level.toUpperCase()}] ${a.code}: ${a.message}`,
    level: a.level,
    code: a.code,
    message: a.message,
    ts: a.ts,
    time: formatIst(a.ts),
    // The context may hold anything a component put there: never send a secret off the machine.
    ...(a.context ? { context: redact(a.context) as Readonly<Record<string, unknown>> } : {}),
    source: 'tarang',
  };
}
