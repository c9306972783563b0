import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cfg, loadConfigFile, parseConfigText, validateConfig } from '../../src/core/config.js';
import { configErrorOf } from '../support/config-error.js';

const schema = z
  .object({
    risk: z.object({ maxOrderValue: cfg.positiveNumber(), mode: z.enum(['active', 'halted']).default('active') }).strict(),
    broker: z.object({ accessToken: z.string().min(1) }),
  })
  .strict();


describe('config loading', () => {
  it('names the file, line and key path of a wrong value', () => {
    const msg = configErrorOf(() => parseConfigText('risk:\n  maxOrderValue: "abc"\nbroker:\n  accessToken: t\n', 'config/paper.yaml', schema, {}));
    expect(msg).toBe('config/paper.yaml:2: risk.maxOrderValue: expected a positive number, got "abc"');
  });

  it('reports every problem at once: unknown keys, bad enums, missing keys', () => {
    const msg = configErrorOf(() => parseConfigText('risk:\n  maxOrderValue: -5\n  mode: paused\n  maxOrdrValue: 1\n', 'c.yaml', schema, {}));
    expect(msg).toContain('c.yaml:2: risk.maxOrderValue: expected a positive number, got -5');
    expect(msg).toContain('c.yaml:3: risk.mode: expected one of "active", "halted", got "paused"');
    expect(msg).toContain('risk: unknown key "maxOrdrValue"');
    expect(msg).toContain('broker: is required');
  });

  it('substitutes ${ENV} and ${ENV:-default}, and names a missing variable', () => {
    const text = 'risk:\n  maxOrderValue: 100\nbroker:\n  accessToken: ${TARANG_ACCESS_TOKEN}\n';
    expect(parseConfigText(text, 'c.yaml', schema, { TARANG_ACCESS_TOKEN: 'tok123' }).broker.accessToken).toBe('tok123');
    expect(configErrorOf(() => parseConfigText(text, 'c.yaml', schema, {}))).toContain(
      'c.yaml: broker.accessToken: environment variable TARANG_ACCESS_TOKEN is not set',
    );
    const withDefault = 'risk:\n  maxOrderValue: 1\nbroker:\n  accessToken: ${NOPE:-fallback}\n';
    expect(parseConfigText(withDefault, 'c.yaml', schema, {}).broker.accessToken).toBe('fallback');
  });

  it('points at the line of a YAML syntax error', () => {
    expect(configErrorOf(() => parseConfigText('risk:\n  maxOrderValue: [1,\n', 'bad.yaml', schema, {}))).toMatch(/^bad\.yaml:\d+:\d+: /);
  });

  it('loads from a file and says when the file cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tarang-cfg-'));
    const file = join(dir, 'ok.yaml');
    writeFileSync(file, 'risk:\n  maxOrderValue: 5e5\nbroker:\n  accessToken: abc\n');
    expect(loadConfigFile(file, schema, {}).risk.maxOrderValue).toBe(500000);
    expect(configErrorOf(() => loadConfigFile(join(dir, 'missing.yaml'), schema, {}))).toMatch(/missing\.yaml: cannot read config file/);
  });

  it('validates already-parsed values (CLI flags) in the same style', () => {
    expect(configErrorOf(() => validateConfig({ risk: { maxOrderValue: 0 }, broker: { accessToken: 'x' } }, '--max-order-value', schema))).toBe(
      '--max-order-value: risk.maxOrderValue: expected a positive number, got 0',
    );
  });
});

describe('money in config files', () => {
  const money = z.object({ limit: cfg.rupees().optional(), floor: cfg.rupees('nonnegative').default(0) }).strict();

  it('reads rupees as written and keeps exact integer paise', () => {
    const text = 'limit: 500000\nfloor: 1426.55\n';
    expect(parseConfigText(text, 'm.yaml', money, {})).toEqual({ limit: 50_000_000, floor: 142_655 });
    expect(parseConfigText('limit: "5,00,000.50"\n', 'm.yaml', money, {}).limit).toBe(50_000_050);
    expect(parseConfigText('limit: 5 lakh\n', 'm.yaml', money, {}).limit).toBe(50_000_000);
    expect(parseConfigText('limit: ${LIMIT}\n', 'm.yaml', money, { LIMIT: '1.5 crore' }).limit).toBe(1_500_000_000);
  });

  it('refuses a fraction of a paisa with the file, line, key and value', () => {
    expect(configErrorOf(() => parseConfigText('floor: 0\nlimit: 1000.005\n', 'm.yaml', money, {}))).toBe(
      'm.yaml:2: limit: expected rupees with at most 2 decimals (whole paise), got 1000.005',
    );
  });

  it('names the file, line and key of a value that is not an amount, and of zero or negative limits', () => {
    const msg = configErrorOf(() => parseConfigText('limit: lots\nfloor: -1\n', 'm.yaml', money, {}));
    expect(msg).toContain('m.yaml:1: limit: expected an amount in rupees such as 500000, 1426.50, "5,00,000" or "5 lakh", got "lots"');
    expect(msg).toContain('m.yaml:2: floor: expected an amount in rupees >= 0, got -1');
    expect(configErrorOf(() => parseConfigText('limit: 0\n', 'm.yaml', money, {}))).toBe('m.yaml:1: limit: expected an amount in rupees > 0, got 0');
    expect(configErrorOf(() => parseConfigText('limit: [1]\n', 'm.yaml', money, {}))).toBe(
      'm.yaml:1: limit: expected an amount in rupees such as 500000, 1426.50, "5,00,000" or "5 lakh", got [1]',
    );
  });
});
