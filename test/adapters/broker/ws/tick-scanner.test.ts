/**
 * The tick scanner reads plain tick frames straight from their bytes and leaves every other frame
 * to the general decoder. Whatever it does, a Buffer (which it may read) must decode to exactly
 * what the same text decodes to through JSON.parse (a string never goes through it).
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../../src/core/random.js';
import type { DataException } from '../../../../src/adapters/broker/errors.js';
import { FrameDecoder, type StreamFrame } from '../../../../src/adapters/broker/ws/frame-decoder.js';
import { TickScanner } from '../../../../src/adapters/broker/ws/tick-scanner.js';

/** Decodes `messages` in order with a fresh decoder: as bytes (the scanner may read them) or as text (JSON.parse only). */
function decodeAll(messages: readonly string[], as: 'bytes' | 'text'): { frames: StreamFrame[]; errors: string[] } {
  const d = new FrameDecoder({ stream: 'ws:test', resolveBareId: (id) => (id === '777' ? 'NFO_777' : undefined) });
  const frames: StreamFrame[] = [];
  const errors: string[] = [];
  for (const m of messages) d.decode(as === 'bytes' ? Buffer.from(m) : m, (f) => frames.push(f), (e: DataException) => errors.push(e.message));
  return { frames, errors };
}

function sameAsJsonParse(messages: readonly string[]): void {
  const bytes = decodeAll(messages, 'bytes');
  const text = decodeAll(messages, 'text');
  expect(bytes.errors).toStrictEqual(text.errors);
  expect(bytes.frames).toStrictEqual(text.frames);
}

const FULL = '{"mode":"full","instrument":"2885","exchange":"NSE","timestamp":1795146300000,"data":{"ltp":321.45,"open":321.45,"high":322.1,"low":320.05,"close":322.7,"volume":875,"ltt":1795146300000,"total_buy_qty":1105224,"total_sell_qty":1851416,"oi":0,"bid_price":321.45,"bid_qty":5088,"ask_price":321.5,"ask_qty":38115}}';

describe('tick scanner', () => {
  it('reads the simulator\'s full frame member by member, with the cached scrip code', () => {
    const s = new TickScanner();
    expect(s.scan(Buffer.from(FULL))).toBe(true);
    expect(s.mode).toBe('full');
    expect(s.instrument).toBe('NSE_2885');
    expect(s.timestamp).toBe(1795146300000);
    expect(Array.from(s.values)).toStrictEqual([321.45, 875, 321.45, 321.5, 5088, 38115, 321.45, 322.1, 320.05, 322.7, 0, 1795146300000]);
    const first = s.instrument;
    expect(s.scan(Buffer.from(FULL))).toBe(true);
    expect(s.instrument).toBe(first);
  });

  it('leaves every frame that is not a plain tick frame to the general decoder', () => {
    const s = new TickScanner();
    const refused = [
      '{"mode":"order_update","timestamp":1,"data":{"order_id":"1"}}',
      '{"type":"heartbeat","timestamp":1}',
      '"{\\"mode\\":\\"ltp\\",\\"instrument\\":\\"2885\\",\\"exchange\\":\\"NSE\\",\\"data\\":{\\"ltp\\":1}}"',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1}}\n{"type":"heartbeat"}',
      '{"mode":"ltp","instrument":"NSE:2885","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":2885,"exchange":"NSE","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"2885","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"02885","exchange":"NSE","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","segment":"EQ","data":{"ltp":1}}',
      '{"mode":"ltp","instrument_token":"2885","instrument":"2885","exchange":"NSE","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":"1,426.50"}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1.4265e3}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":01}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1.}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1234567890123456}}',
      '{"mode":"ltp","instrument":"2885","exchange":"N\\u0053E","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSÉ","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1,"depth":{"buy":[]}}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","extra":[1],"data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":true}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","timestamp":"1795146300000","data":{"ltp":1}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1}} x',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1},}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE"}',
      '[{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1}}]',
      '{}',
      '',
    ];
    for (const f of refused) expect(s.scan(Buffer.from(f)), f).toBe(false);
  });

  it('decodes recorded and awkward frames exactly as JSON.parse does, errors included', () => {
    sameAsJsonParse([
      FULL,
      // Partial frames: absent members keep the last value, null ones clear it, a null or absent timestamp falls back to ltt.
      '{"mode":"full","instrument":"2885","exchange":"NSE","data":{"ltp":322,"volume":900}}',
      '{"mode":"full","instrument":"2885","exchange":"NSE","timestamp":null,"data":{"ltp":null,"bid_price":null,"oi":null,"ltt":1795146301000}}',
      '{"mode":"quote","instrument":"2885","exchange":"NSE","timestamp":1795146302000,"data":{}}',
      // Any key order, whitespace, unknown scalar members, duplicate keys (the last wins), negative numbers and -0.
      ' { "data" : { "ask_qty" : 5 , "ltp" : 1426.5 , "note" : "x" , "flag" : true , "n" : null , "ltp" : 1426.55 } ,\t"exchange" : "BSE" , "instrument" : "500325" , "mode" : "ltp" , "timestamp" : 1795146303000 , "seq" : -1.5 }\r ',
      '{"mode":"ltp","instrument":"1","exchange":"NSE","timestamp":1,"data":{"ltp":-0,"open":-0.05,"volume":0}}',
      '{"mode":"ltp","instrument":"1","exchange":"NSE","timestamp":2,"data":{"ltp":0.1,"close":123456789.12,"high":0.005,"low":99999.995}}',
      '{"mode":"ltp","instrument":"1","exchange":"NSE","timestamp":3,"data":{"ltp":1.23456789012345}}',
      // A second `data` replaces the first.
      '{"mode":"ltp","instrument":"1","exchange":"NSE","timestamp":4,"data":{"ltp":5,"open":4},"data":{"ltp":6}}',
      // Errors: no ltp yet for a new instrument; refused frames take the general path and report there.
      '{"mode":"ltp","instrument":"42","exchange":"NSE","data":{"volume":1}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":"abc"}}',
      '{"mode":"ltp","instrument":"777","data":{"ltp":11.5}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":01}}',
      '{"mode":"ltp","instrument":"2885","exchange":"NSE","data":{"ltp":1}',
      '{"type":"heartbeat","timestamp":1795146304000}',
      '{"mode":"order_update","timestamp":1795146304000,"data":{"order_id":"1"}}',
    ]);
  });

  it('agrees with JSON.parse on 20,000 random tick frames', () => {
    const rnd = mulberry32(21);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const number = (): string => {
      const r = rnd();
      if (r < 0.05) return 'null';
      const places = Math.floor(rnd() * 8);
      const whole = Math.floor(rnd() * 10 ** Math.floor(rnd() * 8));
      const frac = places === 0 ? '' : `.${String(Math.floor(rnd() * 10 ** places)).padStart(places, '0')}`;
      return `${rnd() < 0.05 ? '-' : ''}${whole}${frac}`;
    };
    const fields = ['ltp', 'volume', 'bid_price', 'ask_price', 'bid_qty', 'ask_qty', 'open', 'high', 'low', 'close', 'oi', 'ltt', 'total_buy_qty'];
    const messages: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const data = fields.filter(() => rnd() < 0.7).map((f) => `"${f}":${number()}`);
      // Every instrument's first frame has an ltp, so most frames take the fast path.
      if (i < 200) data.push(`"ltp":${Math.floor(rnd() * 1e6) / 100}`);
      const members = [`"mode":"${pick(['ltp', 'quote', 'full'])}"`, `"instrument":"${1 + (i % 200)}"`, `"exchange":"${pick(['NSE', 'BSE', 'NFO'])}"`, `"data":{${data.join(',')}}`];
      if (rnd() < 0.9) members.push(`"timestamp":${rnd() < 0.1 ? 'null' : 1795146300000 + i}`);
      messages.push(`{${members.sort(() => rnd() - 0.5).join(rnd() < 0.5 ? ',' : ' , ')}}`);
    }
    sameAsJsonParse(messages);
  });
});
