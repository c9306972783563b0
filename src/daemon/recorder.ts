/**
 * The event recorder: every event of the merged bus, one JSON object per line, one file per IST
 * trading day (`<dir>/events-YYYY-MM-DD.jsonl`, the day of the event's own `ts`, so a paper session
 * on a simulated date files under that date). `readRecording` plays a directory back in order.
 *
 * The tick path must never wait on the disk: `record` only serialises into an in-memory batch; the
 * batch goes to a file stream every `flushIntervalMs` or once it holds `maxBatchBytes`. If the disk
 * is slower than the feed, the stream's own buffer grows (bounded by `maxPendingBytes`, past which
 * batches are dropped and counted rather than stalling trading or exhausting memory).
 */
import { createReadStream, createWriteStream, mkdirSync, readdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Event } from '../core/events.js';
import { TarangError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { istDate } from '../core/time.js';

export class RecordingError extends TarangError {
  readonly code = 'RECORDING_INVALID' as const;
}

const OptionsSchema = z.object({
  dir: z.string().min(1),
  flushIntervalMs: z.number().int().positive().default(1_000),
  maxBatchBytes: z.number().int().positive().default(1 << 20),
  maxPendingBytes: z.number().int().positive().default(64 << 20),
});

export interface RecorderOptions {
  readonly dir: string;
  readonly flushIntervalMs?: number;
  readonly maxBatchBytes?: number;
  readonly maxPendingBytes?: number;
  readonly log?: Logger;
}

const FILE_RE = /^events-(\d{4}-\d{2}-\d{2})\.jsonl$/;

export function recordingFileName(date: string): string {
  return `events-${date}.jsonl`;
}

export class EventRecorder {
  private readonly dir: string;
  private readonly flushIntervalMs: number;
  private readonly maxBatchBytes: number;
  private readonly maxPendingBytes: number;
  private readonly log: Logger | undefined;
  private batch: string[] = [];
  private batchBytes = 0;
  private day: string | undefined;
  private stream: WriteStream | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private written = 0;
  private droppedEvents = 0;
  private streamError: Error | undefined;

  constructor(options: RecorderOptions) {
    const parsed = OptionsSchema.safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RecordingError(`recorder: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid options'}`);
    }
    this.dir = parsed.data.dir;
    this.flushIntervalMs = parsed.data.flushIntervalMs;
    this.maxBatchBytes = parsed.data.maxBatchBytes;
    this.maxPendingBytes = parsed.data.maxPendingBytes;
    this.log = options.log;
    mkdirSync(this.dir, { recursive: true });
    // An I/O cadence, not a reading of "now": real time is right even under a virtual clock.
    this.timer = setInterval(() => this.flush(), this.flushIntervalMs);
    this.timer.unref();
  }

  /** Events handed to the file system so far. */
  get recorded(): number {
    return this.written;
  }

  /** Events lost because the disk could not keep up (or failed). */
  get dropped(): number {
    return this.droppedEvents;
  }

  /** Queues one event; never blocks. Events after `stop` are refused loudly (a wiring bug). */
  record(event: Event): void {
    if (this.stopped) throw new RecordingError('recorder: record after stop', { type: event.type });
    const day = istDate(event.ts);
    if (day !== this.day) {
      this.flush();
      this.rotate(day);
    }
    const line = `${JSON.stringify(event)}\n`;
    this.batch.push(line);
    this.batchBytes += line.length;
    if (this.batchBytes >= this.maxBatchBytes) this.flush();
  }

  /** Hands the current batch to the file stream. */
  flush(): void {
    if (this.batch.length === 0 || !this.stream) return;
    const n = this.batch.length;
    const text = this.batch.join('');
    this.batch = [];
    this.batchBytes = 0;
    if (this.streamError || this.stream.writableLength > this.maxPendingBytes) {
      this.droppedEvents += n;
      this.log?.error({ dropped: n, totalDropped: this.droppedEvents, err: this.streamError }, 'recorder: disk not keeping up, events dropped from the recording');
      return;
    }
    this.stream.write(text);
    this.written += n;
  }

  /** Flushes everything and closes the file; resolves once the data is with the OS. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.flush();
    this.stopped = true;
    clearInterval(this.timer);
    await this.closeStream();
  }

  private rotate(day: string): void {
    const old = this.stream;
    if (old) void endStream(old);
    this.day = day;
    this.streamError = undefined;
    const s = createWriteStream(join(this.dir, recordingFileName(day)), { flags: 'a' });
    s.on('error', (e) => {
      this.streamError = e;
      this.log?.error({ err: e, day }, 'recorder: cannot write the recording');
    });
    this.stream = s;
  }

  private async closeStream(): Promise<void> {
    const s = this.stream;
    this.stream = undefined;
    if (s) await endStream(s);
    if (this.streamError) throw new RecordingError(`recorder: writing ${this.day ?? ''} failed: ${this.streamError.message}`, { day: this.day });
  }
}

function endStream(s: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (s.destroyed) return resolve();
    s.end(() => resolve());
    s.once('error', () => resolve());
  });
}

export interface ReadRecordingOptions {
  /** First IST day to read (`YYYY-MM-DD`, inclusive). */
  readonly from?: string;
  /** Last IST day to read (inclusive). */
  readonly to?: string;
  /**
   * Called for a torn last line (the process died mid-write); such a line is skipped. A malformed
   * line anywhere else throws a RecordingError naming the file and line.
   */
  readonly onTornLine?: (file: string, line: number) => void;
}

/** The recording's days present in `dir`, oldest first. */
export function recordedDays(dir: string): string[] {
  return readdirSync(dir)
    .map((f) => FILE_RE.exec(f)?.[1])
    .filter((d): d is string => d !== undefined)
    .sort();
}

/** Yields the recorded events of `dir` in the order they were recorded, day by day. */
export async function* readRecording(dir: string, options: ReadRecordingOptions = {}): AsyncGenerator<Event> {
  for (const day of recordedDays(dir)) {
    if (options.from && day < options.from) continue;
    if (options.to && day > options.to) continue;
    yield* readRecordingFile(join(dir, recordingFileName(day)), options.onTornLine);
  }
}

async function* readRecordingFile(file: string, onTornLine?: (file: string, line: number) => void): AsyncGenerator<Event> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNo = 0;
  let bad: { line: number; error: unknown } | undefined;
  for await (const line of rl) {
    lineNo++;
    if (bad) throw new RecordingError(`${file}:${bad.line}: not a JSON event`, { file, line: bad.line }, { cause: bad.error });
    if (line.length === 0) continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch (e) {
      // Only the last line may be torn; decide once we know whether another line follows.
      bad = { line: lineNo, error: e };
      continue;
    }
    if (!isEventShape(event)) throw new RecordingError(`${file}:${lineNo}: expected an event with "type" and "ts"`, { file, line: lineNo });
    yield event;
  }
  if (bad) onTornLine?.(file, bad.line);
}

function isEventShape(v: unknown): v is Event {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string' && typeof (v as { ts?: unknown }).ts === 'number';
}
