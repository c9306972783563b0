/**
 * Calls the "timeout" and "lost ack" faults never answer. Their sockets are kept here so the
 * simulator can free them at close (else a client's keep-alive pool would hang the shutdown).
 */
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLog } from '../control/request-log.js';

export class HeldCalls {
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly requests: RequestLog,
    private readonly now: () => number,
  ) {}

  /** Takes the call over and never answers it; logged with status 0. */
  hold(request: FastifyRequest, reply: FastifyReply): void {
    reply.hijack();
    const socket = request.socket;
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    this.requests.add({ method: request.method, path: request.url, status: 0, ip: socket.remoteAddress ?? '', ts: this.now() });
  }

  releaseAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }
}
