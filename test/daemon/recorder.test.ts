import { appendFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events.js';
import { istDateTime } from '../../src/core/time.js';
import { EventRecorder, RecordingError, readRecording, recordedDays } from '../../src/daemon/recorder.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'tarang-rec-'));

function tick(ts: number, ltp: number): Event {
  return { type: 'tick', ts, instrument: 'NSE_2885', ltp };
}

async function collect(dir: string, options = {}): Promise<Event[]> {
  const out: Event[] = [];
  for await (const e of readRecording(dir, options)) out.push(e);
  return out;
}

describe('EventRecorder', () => {
  it('writes every event to one file per IST day and replays them in order', async () => {
    const dir = tmp();
    const rec = new EventRecorder({ dir });
    const day1 = istDateTime('2024-01-02', '15:29');
    // 23:59 IST on the 2nd and 00:01 IST on the 3rd fall on different IST days (but the same UTC day).
    const late = istDateTime('2024-01-02', '23:59');
    const next = istDateTime('2024-01-03', '00:01');
    const events: Event[] = [
      tick(day1, 100),
      { type: 'lifecycle', ts: day1 + 1, phase: 'started', source: 'engine' },
      tick(late, 101),
      tick(next, 102),
      { type: 'alert', ts: next + 5, level: 'critical', code: 'KILL_SWITCH', message: 'daily loss' },
    ];
    for (const e of events) rec.record(e);
    await rec.stop();
    expect(readdirSync(dir).sort()).toEqual(['events-2024-01-02.jsonl', 'events-2024-01-03.jsonl']);
    expect(readFileSync(join(dir, 'events-2024-01-02.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(await collect(dir)).toEqual(events);
    expect(rec.recorded).toBe(5);
    expect(rec.dropped).toBe(0);
    expect(recordedDays(dir)).toEqual(['2024-01-02', '2024-01-03']);
    expect(await collect(dir, { from: '2024-01-03' })).toEqual(events.slice(3));
    expect(await collect(dir, { to: '2024-01-02' })).toEqual(events.slice(0, 3));
  });

  it('buffers in memory until the batch is full or the flush timer fires, and flushes on stop', async () => {
    const dir = tmp();
    const rec = new EventRecorder({ dir, flushIntervalMs: 60_000, maxBatchBytes: 10_000 });
    const ts = istDateTime('2024-01-02', '10:00');
    rec.record(tick(ts, 1));
    await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(join(dir, 'events-2024-01-02.jsonl'), 'utf8')).toBe('');
    for (let i = 0; i < 300; i++) rec.record(tick(ts + i, i)); // > 10 kB: a flush by size
    await new Promise((r) => setTimeout(r, 20));
    const mid = readFileSync(join(dir, 'events-2024-01-02.jsonl'), 'utf8').split('\n').length - 1;
    expect(mid).toBeGreaterThan(0);
    expect(mid).toBeLessThan(301);
    await rec.stop();
    expect((await collect(dir)).length).toBe(301);
  });

  it('appends to the day file of an earlier run instead of overwriting it', async () => {
    const dir = tmp();
    const ts = istDateTime('2024-01-02', '10:00');
    const a = new EventRecorder({ dir });
    a.record(tick(ts, 1));
    await a.stop();
    const b = new EventRecorder({ dir });
    b.record(tick(ts + 1, 2));
    await b.stop();
    expect((await collect(dir)).map((e) => (e.type === 'tick' ? e.ltp : 0))).toEqual([1, 2]);
  });

  it('refuses to record after stop', async () => {
    const rec = new EventRecorder({ dir: tmp() });
    await rec.stop();
    expect(() => rec.record(tick(0, 1))).toThrow(RecordingError);
  });

  it('skips a torn last line (a crash mid-write) and reports it', async () => {
    const dir = tmp();
    const file = join(dir, 'events-2024-01-02.jsonl');
    writeFileSync(file, `${JSON.stringify(tick(1, 1))}\n`);
    appendFileSync(file, '{"type":"tick","ts":2,"instr');
    const torn: number[] = [];
    expect(await collect(dir, { onTornLine: (_f: string, line: number) => torn.push(line) })).toEqual([tick(1, 1)]);
    expect(torn).toEqual([2]);
  });

  it('throws on a malformed line in the middle, naming the file and line', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'events-2024-01-02.jsonl'), `${JSON.stringify(tick(1, 1))}\nnot json\n${JSON.stringify(tick(2, 2))}\n`);
    await expect(collect(dir)).rejects.toThrow(/events-2024-01-02\.jsonl:2: not a JSON event/);
    writeFileSync(join(dir, 'events-2024-01-02.jsonl'), `{"ts":1}\n`);
    await expect(collect(dir)).rejects.toThrow(/:1: expected an event with "type" and "ts"/);
  });

  it('validates its options', () => {
    expect(() => new EventRecorder({ dir: tmp(), flushIntervalMs: -1 })).toThrow(/flushIntervalMs/);
  });
});
