/** Broker settings: validated at construction, from config or the TARANG_* environment, with messages that say what to fix. */
import { describe, expect, it } from 'vitest';
import { brokerEnv, loadBrokerConfig, parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { ConfigError } from '../../../src/core/errors.js';

describe('broker config', () => {
  it('reads the connection from the environment, config values winning', () => {
    const env = { TARANG_BASE_URL: 'https://api.example.com/', TARANG_WS_URL: 'wss://ws.example.com/prices', TARANG_ACCESS_TOKEN: 'tok-123456', TARANG_MPIN: '' };
    expect(brokerEnv(env)).toEqual({ baseUrl: 'https://api.example.com/', wsUrl: 'wss://ws.example.com/prices', accessToken: 'tok-123456' });
    const c = loadBrokerConfig({ wsUrl: 'wss://other.example.com/ws' }, env);
    expect(c.baseUrl).toBe('https://api.example.com');
    expect(c.wsUrl).toBe('wss://other.example.com/ws');
    expect(c.orderWsUrl).toBe('wss://other.example.com/ws');
    expect(c.ws.maxInstrumentsPerConnection).toBe(3000);
    expect(c.retry.maxAttempts).toBeGreaterThan(1);
  });

  it('takes two WebSocket URLs, as the live service has', () => {
    const c = parseBrokerConfig({ baseUrl: 'https://api.indstocks.com', wsUrl: 'wss://ws-prices.indstocks.com/api/v1/ws/prices', orderWsUrl: 'wss://ws-order-updates.indstocks.com/api/v1/ws/trades', accessToken: 'abcd' });
    expect(c.orderWsUrl).toMatch(/order-updates/);
  });

  it('says how to authenticate when neither a token nor the TOTP trio is given', () => {
    const e = (() => {
      try {
        loadBrokerConfig({}, { TARANG_BASE_URL: 'http://127.0.0.1:1', TARANG_API_KEY: 'k' });
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).message).toMatch(/TARANG_ACCESS_TOKEN/);
    expect((e as ConfigError).message).toMatch(/missing mpin, totpSecret/);
  });

  it('names the key and its variable for a bad URL or an unknown option', () => {
    expect(() => loadBrokerConfig({}, { TARANG_BASE_URL: 'ftp://x', TARANG_ACCESS_TOKEN: 'abcd' })).toThrow(/baseUrl \(env TARANG_BASE_URL\): must be a URL starting with http:\/\/ or https:\/\//);
    expect(() => parseBrokerConfig({ baseUrl: 'http://x', accessToken: 'abcd', rateLimit: {} })).toThrow(/rateLimit/);
    expect(() => parseBrokerConfig({ baseUrl: 'http://x', accessToken: 'abcd', totpSecret: 'not base32!' })).toThrow(/totpSecret.*base32/);
    expect(() => parseBrokerConfig({ baseUrl: 'http://x', accessToken: 'abcd', ws: { maxInstrumentsPerConnection: 5000 } })).toThrow(/maxInstrumentsPerConnection/);
  });
});
