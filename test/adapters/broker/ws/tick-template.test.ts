/**
 * Frame templates: once the scanner has read a frame in full, frames with the same skeleton are
 * read by comparing the bytes between their values. Whatever a template reads must be exactly
 * what JSON.parse makes of the same text, and a frame that differs from the template anywhere
 * must be read in full (or left to the general decoder), never misread.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../../src/core/random.js';
import type { DataException } from '../../../../src/adapters/broker/errors.js';
import { FrameDecoder, type StreamFrame } from '../../../../src/adapters/broker/ws/frame-decoder.js';
import { FAIL, NUM, num } from '../../../../src/adapters/broker/ws/json-bytes.js';
import { TickScanner } from '../../../../src/adapters/broker/ws/tick-scanner.js';

function decodeAll(messages: readonly string[], as: 'bytes' | 'text'): { frames: StreamFrame[]; errors: string[] } {
  const d = new FrameDecoder({ stream: 'ws:test' });
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

/** The simulator's full frame, with its values as parameters. */
function full(instrument: string, ts: string, ltp: string, volume: string, bid: string, ask: string): string {
  return `{"mode":"full","instrument":"${instrument}","exchange":"NSE","timestamp":${ts},"data":{"ltp":${ltp},"open":321.45,"high":322.1,"low":320.05,"close":322.7,"volume":${volume},"ltt":${ts},"total_buy_qty":1105224,"total_sell_qty":1851416,"oi":0,"bid_price":${bid},"bid_qty":5088,"ask_price":${ask},"ask_qty":38115}}`;
}

describe('tick frame templates', () => {
  it('reads a repeated skeleton with other values: longer and shorter numbers, negatives, nulls, large volumes', () => {
    sameAsJsonParse([
      full('2885', '1795146300000', '321.45', '875', '321.45', '321.5'),
      full('2885', '1795146300001', '1426.55', '123456789012345', '-0.05', '0'),
      full('1', '1795146300002', '0.5', '0', 'null', 'null'),
      full('500325', 'null', '99999999.99', '4294967296', '1e3', '12'),
      full('500325', '1795146300003', '"1,426.50"', '1', '2', '3'),
      full('42', '1795146300004', '1234567890123456', '1', '2', '3'),
      full('42', '1795146300005', '12345678901.2345', '1', '2', '3'),
      full('2885', '1795146300006', '01', '1', '2', '3'),
      full('2885', '1795146300007', '-12.5', '-7', '2', '3'),
    ]);
  });

  it('reads frames that differ from the template in a key, its spacing, a value type or a member as JSON.parse does', () => {
    // Each frame's values differ from the last one's, so a frame misread as the template's shows.
    let n = 0;
    const frame = () => {
      n++;
      return full('2885', String(1795146300000 + n), `${300 + n}.5`, String(800 + n), `${300 + n}.45`, `${300 + n}.55`);
    };
    const messages: string[] = [];
    for (const change of [
      (f: string) => f.replace('"ltp"', '"ltq"'),
      (f: string) => f.replace('"ask_qty"', '"bsk_qty"'),
      (f: string) => f.replace('"volume"', '"volumes"'),
      (f: string) => f.replace('"bid_price"', '"bad_price"'),
      (f: string) => f.replace('"close"', '"clase"'),
      (f: string) => f.replace('"instrument"', '"instrumant"'),
      (f: string) => f.replace('"bid_qty":5088', '"bid_qty": 5088'),
      (f: string) => f.replace('"oi":0', '"oi":{"x":1}'),
      (f: string) => f.replace('"oi":0', '"oi":"0"'),
      (f: string) => f.replace('"mode":"full"', '"mode":"fuel"'),
      (f: string) => f.replace('"exchange":"NSE"', '"exchange":"BSE"'),
      (f: string) => f.replace('"exchange":"NSE"', '"exchange":""'),
      (f: string) => f.replace('}}', '},"segment":"EQ"}'),
      (f: string) => f.replace('}}', '}} '),
      (f: string) => f.replace('}}', '}'),
      (f: string) => `${f}\n${frame()}`,
      (f: string) => f.replace('"instrument":"2885"', '"instrument":"02885"'),
      (f: string) => f.replace('"instrument":"2885"', '"instrument":"28a5"'),
    ]) {
      messages.push(frame(), frame(), change(frame()));
    }
    sameAsJsonParse(messages);
  });

  it('keeps several skeletons (ltp, quote, full and partial frames on one connection)', () => {
    const s = new TickScanner();
    const ltp = (v: string) => `{"mode":"ltp","instrument":"2885","exchange":"NSE","timestamp":1,"data":{"ltp":${v}}}`;
    const partial = (v: string) => `{"mode":"quote","instrument":"2885","exchange":"NSE","timestamp":2,"data":{"volume":${v}}}`;
    const fullFrame = (v: string) => full('2885', '3', v, '1', '2', '3');
    for (const [frame, field, value] of [
      [ltp('1.5'), 0, 1.5],
      [partial('10'), 1, 10],
      [fullFrame('7.25'), 0, 7.25],
      [ltp('2.5'), 0, 2.5],
      [partial('20'), 1, 20],
      [fullFrame('8.25'), 0, 8.25],
    ] as const) {
      expect(s.scan(Buffer.from(frame)), frame).toBe(true);
      expect(s.values[field]).toBe(value);
    }
  });

  it('a skeleton without a timestamp stamps its tick from ltt, not with the timestamp of the frame before', () => {
    const stamped = (ltp: string) => `{"mode":"ltp","instrument":"7","exchange":"NSE","timestamp":1795146300000,"data":{"ltp":${ltp}}}`;
    const unstamped = (ltp: string, ltt: string) => `{"mode":"ltp","instrument":"8","exchange":"NSE","data":{"ltp":${ltp},"ltt":${ltt}}}`;
    sameAsJsonParse([stamped('1'), unstamped('2', '1795146300500'), stamped('3'), unstamped('4', '1795146300600'), stamped('5'), unstamped('6', '1795146300700')]);
  });

  it('a second data member is read in full every time (the last one wins, as in JSON.parse)', () => {
    const twice = (v: string) => `{"mode":"ltp","instrument":"1","exchange":"NSE","timestamp":4,"data":{"ltp":5,"open":4},"data":{"ltp":${v}}}`;
    sameAsJsonParse([twice('6'), twice('7'), twice('null'), twice('8')]);
  });

  it('agrees with JSON.parse on 20,000 random frames of a few skeletons', () => {
    const rnd = mulberry32(2121);
    const number = (): string => {
      const r = rnd();
      if (r < 0.05) return 'null';
      if (r < 0.07) return String(Math.floor(rnd() * 1e15));
      const places = Math.floor(rnd() * 8);
      const whole = Math.floor(rnd() * 10 ** Math.floor(rnd() * 11));
      const frac = places === 0 ? '' : `.${String(Math.floor(rnd() * 10 ** places)).padStart(places, '0')}`;
      return `${rnd() < 0.1 ? '-' : ''}${whole}${frac}`;
    };
    const skeletons = [
      ['ltp', 'open', 'high', 'low', 'close', 'volume', 'ltt', 'total_buy_qty', 'total_sell_qty', 'oi', 'bid_price', 'bid_qty', 'ask_price', 'ask_qty'],
      ['ltp'],
      ['volume', 'ltp', 'oi'],
      ['bid_price', 'ask_price', 'bid_qty', 'ask_qty'],
    ];
    const messages: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const keys = skeletons[i < 100 ? 0 : Math.floor(rnd() * skeletons.length)]!;
      const data = keys.map((k) => `"${k}":${i < 100 && k === 'ltp' ? '100.5' : number()}`).join(',');
      const ts = rnd() < 0.05 ? 'null' : String(1795146300000 + i);
      messages.push(`{"mode":"full","instrument":"${1 + (i % 100)}","exchange":"${rnd() < 0.5 ? 'NSE' : 'NFO'}","timestamp":${ts},"data":{${data}}}`);
    }
    sameAsJsonParse(messages);
  });
});

describe('numbers read four digits at a time', () => {
  it('reads every length up to 15 digits, with and without a fraction, and refuses longer ones', () => {
    const digits = '123456789012345678';
    for (let n = 1; n <= 17; n++) {
      for (const text of [digits.slice(0, n), `${digits.slice(0, n)}.5`, `0.${digits.slice(0, n)}`, `-${digits.slice(0, n)}`]) {
        const b = Buffer.from(`${text},`);
        const end = num(b, new DataView(b.buffer), b.byteOffset, 0);
        const significant = text.replace(/[-.]/g, '').replace(/^0+/, '').length + (text.startsWith('0.') ? 1 : 0);
        if (significant > 15) expect(end, text).toBe(FAIL);
        else {
          expect(end, text).toBe(text.length);
          expect(NUM[0], text).toBe(JSON.parse(text));
        }
      }
    }
  });

  it('stops at the end of the frame even where the bytes after it, in the same buffer, are digits', () => {
    const pool = Buffer.from('12345678901234');
    const b = pool.subarray(2, 7);
    expect(num(b, new DataView(pool.buffer), pool.byteOffset + 2, 0)).toBe(5);
    expect(NUM[0]).toBe(34567);
  });
});
