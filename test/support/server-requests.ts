/**
 * HTTP requests as the servers of this process receive them (a simulator a child process talks
 * to), through node's `http.server.request.start` diagnostics channel: a test can act at the moment
 * a request arrives, while it is still unanswered, instead of guessing with a sleep.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ServerRequest {
  readonly method: string;
  readonly path: string;
  /** Answered (or its connection closed) yet. */
  readonly done: boolean;
}

export interface ServerRequestWatch {
  /** Every request received since the watch began, oldest first. */
  readonly seen: readonly ServerRequest[];
  /**
   * Resolves at the first received request `pick` accepts (checked as each arrives, so it is
   * still unanswered then; `pick` sees those before it too). Rejects after `timeoutMs` of real time.
   */
  next(pick: (r: ServerRequest, before: readonly ServerRequest[]) => boolean, what: string, timeoutMs: number): Promise<ServerRequest>;
  close(): void;
}

const CHANNEL = 'http.server.request.start';

export function watchServerRequests(): ServerRequestWatch {
  const seen: Array<{ method: string; path: string; done: boolean }> = [];
  const waiters = new Set<(r: ServerRequest) => void>();
  const onStart = (msg: unknown): void => {
    const { request, response } = msg as { request: IncomingMessage; response: ServerResponse };
    const r = { method: request.method ?? '', path: request.url ?? '', done: false };
    response.once('close', () => (r.done = true));
    for (const w of [...waiters]) w(r);
    seen.push(r);
  };
  subscribe(CHANNEL, onStart);
  return {
    seen,
    next(pick, what, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs} ms of real time waiting for ${what}`));
        }, timeoutMs);
        function check(r: ServerRequest): void {
          if (!pick(r, seen)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(r);
        }
        waiters.add(check);
      });
    },
    close() {
      unsubscribe(CHANNEL, onStart);
      waiters.clear();
    },
  };
}
