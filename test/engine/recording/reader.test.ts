/**
 * The session recording's reader and the recorder's header: a recording opens with its version
 * line and hands the events over with their line numbers; an old, newer, truncated or malformed
 * recording is refused with a message naming the file and the line.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/core/events.js';
import { istDateTime } from '../../../src/core/time.js';
import { EventRecorder, readRecording } from '../../../src/daemon/recorder.js';
import { openRecording, RECORDING_FORMAT, RECORDING_VERSION, RecordingError, type RecordedLine, type RecordingHeaderInput } from '../../../src/engine/recording/index.js';

const T = istDateTime('2026-11-20', '10:00');
const tmp = (): string => mkdtempSync(join(tmpdir(), 'tarang-recording-'));

function header(over: Partial<RecordingHeaderInput> = {}): RecordingHeaderInput {
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    ts: T,
    mode: 'paper',
    venue: 'paper',
    tagPrefix: 'tr',
    run: 3,
    ticks: true,
    strategies: [{ id: 'sma-1', strategy: 'sma-cross', ref: 'sma-cross', params: { instrument: 'NSE_2885', fast: 5, slow: 20, qty: 1 } }],
    config: { risk: {}, execution: {}, shutdown: { onStop: 'cancel' } },
    instruments: [{ id: 'NSE_2885', exchange: 'NSE', segment: 'EQUITY', securityId: '2885', kind: 'EQUITY', tradingSymbol: 'RELIANCE-EQ', symbol: 'RELIANCE', lotSize: 1, tickSize: 5 }],
    funds: { available: 10_00_000_00 },
    positions: [],
    openOrders: 0,
    ...over,
  };
}

const tick = (i: number): Event => ({ type: 'tick', ts: T + i * 1000, instrument: 'NSE_2885', ltp: 140_000 + i * 5 });
const line = (v: unknown): string => JSON.stringify(v);

function write(lines: readonly string[], end = '\n'): string {
  const file = join(tmp(), 'events-2026-11-20.jsonl');
  writeFileSync(file, lines.join('\n') + end);
  return file;
}

async function all(file: string, options = {}): Promise<{ header: RecordingHeaderInput; lines: RecordedLine[] }> {
  const r = await openRecording(file, options);
  const lines: RecordedLine[] = [];
  for await (const b of r.batches) lines.push(...b);
  return { header: r.header, lines };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(RecordingError);
  return (e as Error).message;
}

describe('session recording reader', () => {
  it('reads the header, then every event with its line number, from a file or a stream', async () => {
    const text = [line(header()), line(tick(0)), '', line(tick(1))];
    const r = await all(write(text));
    expect(r.header).toMatchObject({ version: 1, run: 3, strategies: [{ id: 'sma-1' }] });
    expect(r.lines.map((l) => [l.line, l.event.ts])).toEqual([[2, T], [4, T + 1000]]);
    const s = await openRecording({ name: 'generated', stream: Readable.from([text.join('\n').slice(0, 100), `${text.join('\n').slice(100)}\n`]) });
    let n = 0;
    for await (const b of s.batches) n += b.length;
    expect(n).toBe(2);
  });

  it('refuses an old recording without a version line, naming line 1', async () => {
    const msg = await refusal(all(write([line(tick(0)), line(tick(1))])));
    expect(msg).toMatch(/events-2026-11-20\.jsonl:1: an old recording \(no version line: the first line is a "tick" event\)/);
  });

  it('refuses a newer format version and a header that does not parse', async () => {
    expect(await refusal(all(write([line(header({ version: 7 })), line(tick(0))])))).toMatch(/:1: recording format version 7; this tarang reads versions up to 1/);
    expect(await refusal(all(write([line({ ...header(), funds: { available: 'lots' } }), line(tick(0))])))).toMatch(/:1: recording header: .*funds\.available/);
    expect(await refusal(all(write([])))).toMatch(/empty file, no recording header on line 1/);
  });

  it('refuses a truncated recording naming the torn line, and reads up to it when asked', async () => {
    const text = [line(header()), line(tick(0)), line(tick(1)), line(tick(2)).slice(0, 30)];
    const file = write(text, '');
    expect(await refusal(all(file))).toMatch(/:4: truncated: the last line ends mid-event .* events up to line 3 are whole/);
    const torn: number[] = [];
    const r = await all(file, { torn: 'skip', onTorn: (l: number) => torn.push(l) });
    expect(r.lines).toHaveLength(2);
    expect(torn).toEqual([4]);
  });

  it('refuses a malformed line in the middle, naming it', async () => {
    const msg = await refusal(all(write([line(header()), line(tick(0)), '{"type":"tick",', line(tick(2))])));
    expect(msg).toMatch(/:3: not a JSON event/);
    expect(await refusal(all(write([line(header()), line({ hello: 1 })])))).toMatch(/:2: expected an event with "type" and "ts"/);
  });

  it('stops at a later session appended to the same day and counts it', async () => {
    const r = await openRecording(write([line(header()), line(tick(0)), line(header({ run: 4 })), line(tick(5))]));
    const events: RecordedLine[] = [];
    for await (const b of r.batches) events.push(...b);
    expect(events.map((e) => e.line)).toEqual([2]);
    expect(r.laterSessions()).toBe(1);
  });
});

describe('EventRecorder header', () => {
  it('holds events until the header is known, writes it first in each day file, and the daemon reader skips it', async () => {
    const dir = tmp();
    const known: { header?: RecordingHeaderInput } = {};
    const rec = new EventRecorder({ dir, header: () => known.header, flushIntervalMs: 5 });
    rec.record(tick(0));
    rec.flush();
    expect(readdirSync(dir)).toEqual([]);
    known.header = header();
    rec.record(tick(1));
    await rec.stop();
    const lines = readFileSync(join(dir, 'events-2026-11-20.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'tarang-recording', version: 1 });
    expect(lines).toHaveLength(3);
    const seen: Event[] = [];
    for await (const e of readRecording(dir)) seen.push(e);
    expect(seen.map((e) => e.ts)).toEqual([T, T + 1000]);
  });

  it('writes a header saying so when the session stops before it started trading, and replay refuses it by name', async () => {
    const dir = tmp();
    const rec = new EventRecorder({ dir, header: () => undefined });
    rec.record({ type: 'lifecycle', ts: T, phase: 'starting', source: 'engine' });
    await rec.stop();
    const file = join(dir, 'events-2026-11-20.jsonl');
    expect(await refusal(all(file))).toMatch(/:1: nothing to replay: the session stopped before it started trading/);
  });
});
