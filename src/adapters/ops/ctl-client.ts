/** The client side of the control API: what `tarang ctl` calls. */
import { request } from 'undici';
import { TarangError, describeError } from '../../core/errors.js';
import { ControlCommand } from './control-command.js';

export class ControlClientError extends TarangError {
  readonly code = 'CONTROL_REQUEST_FAILED' as const;
}

export { ControlCommand } from './control-command.js';

export interface ControlRequest {
  /** e.g. `http://127.0.0.1:9464`. */
  readonly url: string;
  readonly token: string;
  readonly command: ControlCommand;
  readonly reason?: string;
  readonly timeoutMs?: number;
}

export async function sendControl(req: ControlRequest): Promise<Record<string, unknown>> {
  const isRead = req.command === ControlCommand.STATUS;
  const target = new URL(`/control/${req.command}`, req.url).toString();
  let res;
  try {
    res = await request(target, {
      method: isRead ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${req.token}`, ...(isRead ? {} : { 'content-type': 'application/json' }) },
      ...(isRead ? {} : { body: JSON.stringify(req.reason ? { reason: req.reason } : {}) }),
      headersTimeout: req.timeoutMs ?? 10_000,
      bodyTimeout: req.timeoutMs ?? 10_000,
    });
  } catch (e) {
    throw new ControlClientError(`ctl: no daemon answering at ${req.url} (${describeError(e)})`, { url: req.url });
  }
  const text = await res.body.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ControlClientError(`ctl: ${target} answered HTTP ${res.statusCode} with non-JSON: ${text.slice(0, 200)}`, { status: res.statusCode });
  }
  if (res.statusCode === 401) throw new ControlClientError(`ctl: the daemon refused the control token (check ops.tokenFile or --token)`, { status: 401 });
  if (res.statusCode >= 300) {
    const msg = typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : text.slice(0, 200);
    throw new ControlClientError(`ctl ${req.command}: HTTP ${res.statusCode}: ${msg}`, { status: res.statusCode });
  }
  return body as Record<string, unknown>;
}
