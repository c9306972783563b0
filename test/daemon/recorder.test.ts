import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events.js';
import type { Logger } from '../../src/core/log.js';
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

  it('buffers in memory, never writes inside record, writes a full batch on the next event-loop turn and flushes on stop', async () => {
    const dir = tmp();
    const file = join(dir, 'events-2024-01-02.jsonl');
    const rec = new EventRecorder({ dir, flushIntervalMs: 60_000, maxBatchBytes: 10_000 });
    const ts = istDateTime('2024-01-02', '10:00');
    rec.record(tick(ts, 1));
    await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(file)).toBe(false);
    for (let i = 0; i < 300; i++) rec.record(tick(ts + i, i)); // > 10 kB: a flush by size, but not from inside record
    expect(existsSync(file)).toBe(false);
    expect(rec.pending).toBe(301);
    await new Promise((r) => setImmediate(r));
    expect(readFileSync(file, 'utf8').split('\n').length - 1).toBe(301);
    expect(rec.recorded).toBe(301);
    rec.record(tick(ts + 500, 500));
    await rec.stop();
    expect((await collect(dir)).length).toBe(302);
  });

  it('records a burst of 100,000 events and replays exactly the same events in order; stop() writes what the timer had not', async () => {
    const dir = tmp();
    // No timer flush during the burst: everything still queued at stop() must come out of stop().
    const rec = new EventRecorder({ dir, flushIntervalMs: 600_000, maxBatchBytes: 1 << 30 });
    const t0 = istDateTime('2024-01-02', '23:00');
    const events: Event[] = [];
    for (let i = 0; i < 100_000; i++) {
      // Crosses IST midnight two thirds of the way through, so the burst spans two day files.
      const ts = t0 + i * 54;
      const e: Event =
        i % 1000 === 0
          ? { type: 'alert', ts, level: 'warn', code: 'BURST', message: `marker ${i} "quoted" \u20b9` }
          : { type: 'tick', ts, instrument: `NSE_${i % 3000}`, ltp: 100_000 + (i % 977) };
      events.push(e);
      rec.record(e);
    }
    expect(rec.recorded).toBe(0);
    expect(rec.pending).toBe(100_000);
    await rec.stop();
    expect(rec.recorded).toBe(100_000);
    expect(rec.pending).toBe(0);
    expect(rec.dropped).toBe(0);
    expect(recordedDays(dir)).toEqual(['2024-01-02', '2024-01-03']);
    const replayed = await collect(dir);
    expect(replayed.length).toBe(events.length);
    expect(replayed).toEqual(events);
  });

  it('writes a burst on its timer while events keep coming, losing none', async () => {
    const dir = tmp();
    const rec = new EventRecorder({ dir, flushIntervalMs: 5, maxBatchBytes: 64 << 10 });
    const ts = istDateTime('2024-01-02', '10:00');
    const events: Event[] = [];
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 5_000; i++) {
        const e = tick(ts + round * 5_000 + i, round * 5_000 + i);
        events.push(e);
        rec.record(e);
      }
      await new Promise((r) => setTimeout(r, round % 2 === 0 ? 0 : 10));
    }
    expect(rec.recorded).toBeGreaterThan(0); // the timer and the size trigger wrote during the burst
    await rec.stop();
    expect(rec.recorded).toBe(100_000);
    expect(await collect(dir)).toEqual(events);
  });

  it('keeps events while the disk refuses them and writes them once it recovers', async () => {
    const root = tmp();
    const dir = join(root, 'rec');
    const errors: string[] = [];
    const log = { error: (_o: unknown, msg: string) => errors.push(msg), warn: () => undefined } as unknown as Logger;
    const rec = new EventRecorder({ dir, flushIntervalMs: 600_000, log });
    const day1 = istDateTime('2024-01-02', '10:00');
    const day2 = istDateTime('2024-01-03', '10:00');
    const events: Event[] = [tick(day1, 1), tick(day1 + 1, 2)];
    for (const e of events) rec.record(e);
    rec.flush();
    rmSync(dir, { recursive: true });
    // The next day's file cannot be opened: the events stay queued, nothing is counted as written.
    const later: Event[] = [tick(day2, 3), tick(day2 + 1, 4), tick(day2 + 2, 5)];
    for (const e of later) rec.record(e);
    rec.flush();
    expect(rec.recorded).toBe(2);
    expect(rec.pending).toBe(3);
    expect(errors).toHaveLength(1);
    mkdirSync(dir);
    rec.flush();
    expect(rec.pending).toBe(0);
    await rec.stop();
    expect(rec.dropped).toBe(0);
    expect(await collect(dir)).toEqual(later);
  });

  it('gives up the oldest events only past maxPendingBytes of a failing disk, counts them and says so at stop', async () => {
    const root = tmp();
    const dir = join(root, 'rec');
    const rec = new EventRecorder({ dir, flushIntervalMs: 600_000, maxBatchBytes: 1_000, maxPendingBytes: 5_000 });
    rmSync(dir, { recursive: true });
    const ts = istDateTime('2024-01-02', '10:00');
    for (let i = 0; i < 500; i++) rec.record(tick(ts + i, i));
    rec.flush();
    expect(rec.dropped).toBeGreaterThan(0);
    expect(rec.pending + rec.dropped).toBe(500);
    await expect(rec.stop()).rejects.toThrow(/could not be written.*given up/);
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
