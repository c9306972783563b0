/**
 * The broker documents JSON bodies on some GETs (`GET /order`, the utility endpoints). Fastify
 * does not parse bodies on GET, so these routes read the raw stream themselves.
 */
import type { FastifyRequest } from 'fastify';
import { inputError } from './api-error.js';

const MAX_GET_BODY = 64 * 1024;

export async function readGetBody(request: FastifyRequest): Promise<unknown> {
  const raw = request.raw;
  const len = raw.headers['content-length'];
  if ((len === undefined || len === '0') && raw.headers['transfer-encoding'] === undefined) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_GET_BODY) throw inputError(`request body exceeds ${MAX_GET_BODY} bytes`);
    chunks.push(b);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw inputError('request body: not valid JSON');
  }
}

/** Body of a GET (if any) merged over its query: the docs send a body, clients often send a query. */
export async function getParams(request: FastifyRequest): Promise<Record<string, unknown>> {
  const body = await readGetBody(request);
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (body === undefined) return { ...query };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw inputError('request body: expected a JSON object');
  return { ...query, ...(body as Record<string, unknown>) };
}
