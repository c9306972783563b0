import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfigText } from '../../src/core/config.js';
import { ConfigError } from '../../src/core/errors.js';
import { configPath } from '../../src/core/paths.js';
import { DaemonConfigSchema, loadDaemonConfig } from '../../src/daemon/config.js';
import { RiskConfigSchema, parseRiskConfig } from '../../src/risk/config.js';
import { riskFixture } from './fixture.js';
import { configErrorOf } from '../support/config-error.js';

const file = z.object({ risk: RiskConfigSchema }).strict();
const risk = (yaml: string) => parseConfigText(`risk:\n${yaml}`, 'config/live.yaml', file, {}).risk;


describe('risk limits in a config file are rupees', () => {
  it('turns rupee limits into exact integer paise', () => {
    const r = risk('  maxOrderValue: 500000\n  maxPositionValue: "12,50,000.75"\n  maxDailyLoss: 5 lakh\n  maxPositionQty: 50\n');
    expect(r.maxOrderValue).toBe(50_000_000);
    expect(r.maxPositionValue).toBe(125_000_075);
    expect(r.maxDailyLoss).toBe(50_000_000);
    expect(r.maxPositionQty).toBe(50);
  });

  it('reads the ways people write rupees in YAML: plain, grouped, underscored, Rs./-, lakh', () => {
    const r = risk('  maxOrderValue: 5,00,000\n  maxPositionValue: 5_00_000\n  maxDailyLoss: Rs. 50,000/-\n');
    expect([r.maxOrderValue, r.maxPositionValue, r.maxDailyLoss]).toEqual([500_000_00, 500_000_00, 50_000_00]);
    expect(risk('  maxOrderValue: ₹0.05 crore\n').maxOrderValue).toBe(500_000_00);
  });

  it('keeps a paisa-exact limit exact (no float drift)', () => {
    expect(risk('  maxDailyLoss: 1234.56\n').maxDailyLoss).toBe(123_456);
    expect(risk('  maxOrderValue: 0.29\n').maxOrderValue).toBe(29); // 0.29 * 100 is 28.999999999999996 as a float
  });

  it('leaves absent money limits off and keeps the other defaults', () => {
    const r = risk('  maxOpenOrders: 5\n');
    expect(r.maxOrderValue).toBeUndefined();
    expect(r.maxPositionValue).toBeUndefined();
    expect(r.maxDailyLoss).toBeUndefined();
    expect(r.maxOpenOrders).toBe(5);
    expect(r.orderRate).toEqual({ max: 20, windowMs: 1000 });
  });

  it('refuses a fraction of a paisa, naming file, line, key and value', () => {
    expect(configErrorOf(() => risk('  maxOpenOrders: 5\n  maxDailyLoss: 5000.005\n'))).toBe(
      'config/live.yaml:3: risk.maxDailyLoss: expected rupees with at most 2 decimals (whole paise), got 5000.005',
    );
  });

  it('reports every bad money value at once with its line', () => {
    const msg = configErrorOf(() => risk('  maxOrderValue: "5 lakhs rupees"\n  maxPositionValue: 0\n  maxDailyLoss: -5000\n'));
    expect(msg.split('\n')).toEqual([
      'config/live.yaml:2: risk.maxOrderValue: expected an amount in rupees such as 500000, 1426.50, "5,00,000" or "5 lakh", got "5 lakhs rupees"',
      'config/live.yaml:3: risk.maxPositionValue: expected an amount in rupees > 0, got 0',
      'config/live.yaml:4: risk.maxDailyLoss: expected an amount in rupees > 0, got -5000',
    ]);
  });

  it('denies an order above a limit written in rupees, at the rupee figure', () => {
    const config = risk('  maxOrderValue: "1,00,000"\n');
    const { risk: engine } = riskFixture(config);
    const order = { kind: 'place', id: 'p', strategyId: 's1', instrument: 'NSE_2885', side: 'BUY', orderType: 'LIMIT', validity: 'DAY', product: 'INTRADAY' } as const;
    // RELIANCE at Rs 1,420: 70 shares are Rs 99,400; 71 are Rs 1,00,820.
    expect(engine.evaluate({ ...order, qty: 70, limitPrice: 142_000 })).toBeNull();
    expect(engine.evaluate({ ...order, id: 'p2', qty: 71, limitPrice: 142_000 })).toEqual({
      code: 'MAX_ORDER_VALUE',
      reason: 'order value ₹1,00,820.00 exceeds the maximum ₹1,00,000.00',
    });
  });

  it('hands the engine the same paise the file schema produced (parsing again changes nothing)', () => {
    const config = risk('  maxOrderValue: 500000\n  maxDailyLoss: 50000\n');
    expect(parseRiskConfig(config)).toEqual(config);
  });

  it('code passes paise to the engine', () => {
    expect(parseRiskConfig({ maxOrderValue: 50_000_000 }).maxOrderValue).toBe(50_000_000);
    expect(() => parseRiskConfig({ maxOrderValue: 500000.5 })).toThrow(ConfigError);
  });
});

describe('the shipped configs state money in rupees', () => {
  it('config/paper.yaml: Rs 5,00,000 per order, Rs 50,000 daily loss, Rs 10,00,000 paper capital', () => {
    const c = loadDaemonConfig(configPath('paper.yaml'), {});
    expect(c.risk.maxOrderValue).toBe(500_000_00);
    expect(c.risk.maxDailyLoss).toBe(50_000_00);
    expect(c.paper?.capital).toBe(10_00_000_00);
  });

  it('config/live.example.yaml: Rs 1,00,000 per order, Rs 5,000 daily loss', () => {
    const c = loadDaemonConfig(configPath('live.example.yaml'), { TARANG_API_KEY: 'k', TARANG_MPIN: '1234', TARANG_TOTP_SECRET: 'JBSWY3DPEHPK3PXP' });
    expect(c.risk.maxOrderValue).toBe(100_000_00);
    expect(c.risk.maxDailyLoss).toBe(5_000_00);
  });
});

describe('the paper account capital in a daemon config is rupees too', () => {
  const paperFile = (capital: string) => `paper:\n  simulator: embedded\n  capital: ${capital}\nstrategies:\n  - id: a\n    strategy: sma-cross\n`;
  const load = (text: string) => parseConfigText(text, 'paper.yaml', DaemonConfigSchema, {});

  it('turns rupees into paise, Rs 10 lakh when absent', () => {
    expect(load(paperFile('25 lakh')).paper?.capital).toBe(25_00_000_00);
    expect(load(paperFile('"2,50,000.50"')).paper?.capital).toBe(2_50_000_50);
    expect(load('paper: {}\nstrategies:\n  - id: a\n    strategy: sma-cross\n').paper?.capital).toBe(10_00_000_00);
  });

  it('refuses a fraction of a paisa and a non-positive capital with file, line and key', () => {
    expect(configErrorOf(() => load(paperFile('100000.001')))).toBe('paper.yaml:3: paper.capital: expected rupees with at most 2 decimals (whole paise), got 100000.001');
    expect(configErrorOf(() => load(paperFile('0')))).toBe('paper.yaml:3: paper.capital: expected an amount in rupees > 0, got 0');
  });
});
