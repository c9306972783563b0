import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/silent-log.js';

/** The string-named methods of an object and its prototypes (pino's internals are symbols). */
function methodNames(o: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const k of Object.getOwnPropertyNames(p)) if (k !== 'constructor' && typeof (o as Record<string, unknown>)[k] === 'function') names.add(k);
  }
  return [...names].sort();
}

describe('the silent logger (no pino loaded)', () => {
  it('offers every method pino\'s own silent logger has, so code given one cannot tell them apart', () => {
    const ours = silentLogger();
    const theirs = pino({ level: 'silent' });
    expect(methodNames(ours)).toEqual(expect.arrayContaining(methodNames(theirs)));
    expect(ours.level).toBe(theirs.level);
    expect(ours.levelVal).toBe(theirs.levelVal);
    expect(ours.levels.values).toEqual(theirs.levels.values);
    expect(ours.levels.labels).toEqual(theirs.levels.labels);
  });

  it('drops every record at every level, in children too, and says no level is enabled', () => {
    const log = silentLogger();
    const child = log.child({ strategy: 'sma-cross' });
    for (const l of [log, child]) {
      for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const) {
        expect(l[level]({ err: new Error('x') }, 'message')).toBeUndefined();
        expect(l.isLevelEnabled(level)).toBe(false);
      }
    }
    expect(child.bindings()).toEqual({});
    let flushed = false;
    log.flush(() => (flushed = true));
    expect(flushed).toBe(true);
  });
});
