/** The message of the ConfigError `fn` throws; fails the test when it throws nothing or something else. */
import { expect } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';

export function configErrorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}
