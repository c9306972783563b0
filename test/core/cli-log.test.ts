import { describe, expect, it } from 'vitest';
import { createCliLogger, flushHeldErrors, formatCliRecord } from '../../src/core/cli-log.js';
import { registerSecret } from '../../src/core/log.js';

describe('cli log', () => {
  it('writes a warning as one readable line with its details, an error message for err', () => {
    const lines: string[] = [];
    const log = createCliLogger('broker', (l) => lines.push(l));
    log.warn({ endpoint: 'GET /funds', attempt: 1, err: new Error('ECONNREFUSED') }, 'read failed; retrying');
    expect(lines).toEqual(['tarang: warning: read failed; retrying (endpoint=GET /funds, attempt=1, err=ECONNREFUSED)\n']);
  });

  it('redacts secrets by key and by value', () => {
    registerSecret('tok-abcdef-123');
    const lines: string[] = [];
    createCliLogger('broker', (l) => lines.push(l)).warn({ accessToken: 'x', note: 'with tok-abcdef-123' }, 'token tok-abcdef-123 renewed');
    expect(lines.join('')).not.toContain('tok-abcdef-123');
    expect(lines.join('')).toContain('accessToken=[redacted]');
  });

  it('holds errors until flushed', () => {
    const lines: string[] = [];
    createCliLogger('broker', (l) => lines.push(l)).error('lost the socket');
    expect(lines).toEqual([]);
    flushHeldErrors(undefined, (l) => lines.push(l));
    expect(lines).toEqual(['tarang: error: lost the socket\n']);
  });

  it('formats a bare record', () => {
    expect(formatCliRecord({ level: 30, msg: 'ready' })).toBe('tarang: info: ready');
  });
});
