/**
 * The event recorder: every event of the merged bus, one JSON object per line, one file per IST
 * trading day (`<dir>/events-YYYY-MM-DD.jsonl`, the day of the event's own `ts`, so a paper session
 * on a simulated date files under that date). `readRecording` plays a directory back in order.
 *
 * Nothing is lost and the tick path never touches the disk: `record` only serialises the event
 * into an in-memory batch (tagged with its day). Every `flushIntervalMs`, as soon as the batch
 * holds `maxBatchBytes` (on the next turn of the event loop, never inside `record`), on a day
 * change and at `stop`, the batch goes to the day's file with synchronous appends (`writeSync` on
 * an fd opened with 'a', looping over short writes). Synchronous on purpose: a write stream
 * queues data in its own buffer when the disk is slow, and bounding that buffer meant dropping
 * events; a `writeSync` of the few hundred kB that tens of thousands of events per second make in
 * one interval lands in the page cache in well under a millisecond, and a slow disk only makes
 * that one timer callback slower instead of losing data. Every event handed over is therefore
 * with the OS when `flush` or `stop` returns, in order.
 *
 * Each file opened starts with the recording header (src/engine/recording/format.ts: version,
 * config, strategies, instruments, funds at start), from `header`, asked for when the file is
 * opened: a new day's file gets the funds of that moment. Until `header` has an answer (the daemon
 * knows funds only once the engine has reconciled) events wait in memory; a session that stops
 * before that writes a header saying it never started trading.
 *
 * The one case where events can be lost is a failing disk (ENOSPC, EIO): the unwritten batch is
 * kept and retried on every flush, logged as an error, and only past `maxPendingBytes` of unwritten
 * data is the oldest part given up, counted in `dropped` and logged: a trading process must not be
 * taken down by its own recording, so this is the last resort, not the way to keep up.
 */
import { closeSync, createReadStream, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Event } from '../core/events.js';
import { describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { istDate } from '../core/time.js';
import { formatZodIssues } from '../core/zod-issues.js';
import { isHeaderLine, RECORDING_FORMAT, RECORDING_VERSION, RecordingError, type RecordingHeaderInput } from '../engine/recording/format.js';

export { RecordingError };

const OptionsSchema = z.object({
  dir: z.string().min(1),
  flushIntervalMs: z.number().int().positive().default(200),
  maxBatchBytes: z.number().int().positive().default(1 << 20),
  maxPendingBytes: z.number().int().positive().default(256 << 20),
});

export interface RecorderOptions {
  readonly dir: string;
  /** How often the batch is written (real ms; default 200). */
  readonly flushIntervalMs?: number;
  /** Batch size (UTF-16 units, about bytes) that triggers a write on the next event-loop turn (default 1 MiB). */
  readonly maxBatchBytes?: number;
  /** Unwritten data kept while the disk fails, before the oldest is given up (default 256 MiB). */
  readonly maxPendingBytes?: number;
  readonly log?: Logger;
  /**
   * The header of a file being opened for `day` (undefined: not known yet, events wait). Without
   * this option files get no header (tests of the writer alone).
   */
  readonly header?: (day: string) => RecordingHeaderInput | undefined;
}

const FILE_RE = /^events-(\d{4}-\d{2}-\d{2})\.jsonl$/;

export function recordingFileName(date: string): string {
  return `events-${date}.jsonl`;
}

/** Lines of one IST day, in record order. */
interface Segment {
  readonly day: string;
  lines: string[];
  chars: number;
  /** Bytes of the joined text already written (after a short write or a failure mid-way). */
  text?: Buffer;
  offset: number;
}

export class EventRecorder {
  private readonly dir: string;
  private readonly maxBatchBytes: number;
  private readonly maxPendingBytes: number;
  private readonly log: Logger | undefined;
  /** Unwritten segments, oldest first; the last one takes new events. */
  private segments: Segment[] = [];
  private pendingChars = 0;
  private fd: number | undefined;
  private fdDay: string | undefined;
  private readonly timer: NodeJS.Timeout;
  private flushQueued = false;
  private stopped = false;
  private written = 0;
  private droppedEvents = 0;
  private failing: Error | undefined;
  private readonly header: ((day: string) => RecordingHeaderInput | undefined) | undefined;

  constructor(options: RecorderOptions) {
    const parsed = OptionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new RecordingError(`recorder: ${formatZodIssues(parsed.error, { limit: 1 })}`);
    }
    this.dir = parsed.data.dir;
    this.maxBatchBytes = parsed.data.maxBatchBytes;
    this.maxPendingBytes = parsed.data.maxPendingBytes;
    this.log = options.log;
    this.header = options.header;
    mkdirSync(this.dir, { recursive: true });
    // An I/O cadence, not a reading of "now": real time is right even under a virtual clock.
    this.timer = setInterval(() => this.flush(), parsed.data.flushIntervalMs);
    this.timer.unref();
  }

  /** Events written to the file system so far. */
  get recorded(): number {
    return this.written;
  }

  /** Events given up because the disk kept failing past `maxPendingBytes` (0 on a healthy disk). */
  get dropped(): number {
    return this.droppedEvents;
  }

  /** Events handed over and not yet written. */
  get pending(): number {
    let n = 0;
    for (const s of this.segments) n += s.lines.length;
    return n;
  }

  /** Queues one event; never blocks and never does I/O. Events after `stop` are refused loudly (a wiring bug). */
  record(event: Event): void {
    if (this.stopped) throw new RecordingError('recorder: record after stop', { type: event.type });
    const day = istDate(event.ts);
    let seg = this.segments[this.segments.length - 1];
    if (seg === undefined || seg.day !== day || seg.text !== undefined || seg.chars >= this.maxBatchBytes) {
      seg = { day, lines: [], chars: 0, offset: 0 };
      this.segments.push(seg);
    }
    const line = `${JSON.stringify(event)}\n`;
    seg.lines.push(line);
    seg.chars += line.length;
    this.pendingChars += line.length;
    if (this.pendingChars >= this.maxBatchBytes && !this.flushQueued && this.failing === undefined) {
      this.flushQueued = true;
      setImmediate(() => {
        this.flushQueued = false;
        this.flush();
      });
    }
  }

  /**
   * Writes every queued event to its day's file, in order; returns once they are with the OS.
   * On a disk error the rest stays queued for the next flush (and `stop` reports it).
   */
  flush(): void {
    // Events wait for the header (funds are known once the engine has reconciled), except at stop.
    if (this.header && this.fd === undefined && !this.stopped && this.segments.length > 0 && this.header(this.segments[0]!.day) === undefined) return;
    while (this.segments.length > 0) {
      const seg = this.segments[0]!;
      try {
        this.writeSegment(seg);
      } catch (e) {
        this.onWriteError(e);
        return;
      }
      this.segments.shift();
      this.pendingChars -= seg.chars;
      this.written += seg.lines.length;
    }
    if (this.failing) {
      this.log?.warn({ day: this.fdDay }, 'recorder: writing again after a disk error');
      this.failing = undefined;
    }
  }

  /** Writes everything and closes the file. Throws a RecordingError if the disk refused some of it. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.flush();
    this.closeFd();
    const left = this.pending;
    if (left > 0 || this.droppedEvents > 0) {
      const error = this.failing;
      throw new RecordingError(
        `recorder: ${left} event(s) could not be written${this.droppedEvents > 0 ? ` and ${this.droppedEvents} were given up` : ''} in ${this.dir}${error ? `: ${error.message}` : ''}`,
        { pending: left, dropped: this.droppedEvents, dir: this.dir },
      );
    }
  }

  private writeSegment(seg: Segment): void {
    if (this.fdDay !== seg.day || this.fd === undefined) {
      this.closeFd();
      this.fd = openSync(join(this.dir, recordingFileName(seg.day)), 'a');
      this.fdDay = seg.day;
      if (this.header) this.writeAll(Buffer.from(`${JSON.stringify(this.header(seg.day) ?? neverStarted())}\n`, 'utf8'));
    }
    // Joined once; kept with the offset so a retry after a short or failed write resumes exactly there.
    seg.text ??= Buffer.from(seg.lines.join(''), 'utf8');
    while (seg.offset < seg.text.length) seg.offset += writeSync(this.fd, seg.text, seg.offset, seg.text.length - seg.offset);
  }

  private writeAll(buf: Buffer): void {
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd!, buf, off, buf.length - off);
  }

  private onWriteError(e: unknown): void {
    const err = e instanceof Error ? e : new Error(describeError(e));
    if (!this.failing) this.log?.error({ err, day: this.segments[0]?.day, pendingEvents: this.pending }, 'recorder: cannot write the recording; keeping events in memory and retrying');
    this.failing = err;
    // A failed fd (EBADF, a removed directory) is reopened on the next attempt.
    this.closeFd();
    // Last resort: give up the oldest unwritten events rather than exhaust the trading process's memory.
    // Segments are at most about `maxBatchBytes`, so this gives up little at a time; a head segment
    // already partly written stays, so the file never gets a torn line in the middle.
    const keep = (this.segments[0]?.offset ?? 0) > 0 ? 1 : 0;
    let given = 0;
    while (this.pendingChars > this.maxPendingBytes && this.segments.length > keep + 1) {
      const old = this.segments.splice(keep, 1)[0]!;
      this.pendingChars -= old.chars;
      given += old.lines.length;
    }
    if (given > 0) {
      this.droppedEvents += given;
      this.log?.error({ dropped: given, totalDropped: this.droppedEvents, err }, 'recorder: disk failing for too long, oldest events given up from the recording');
    }
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Closing a broken fd has nothing left to save.
    }
    this.fd = undefined;
    this.fdDay = undefined;
  }
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
    if (line.startsWith(`{"format":"${RECORDING_FORMAT}"`)) continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch (e) {
      // Only the last line may be torn; decide once we know whether another line follows.
      bad = { line: lineNo, error: e };
      continue;
    }
    if (isHeaderLine(event)) continue;
    if (!isEventShape(event)) throw new RecordingError(`${file}:${lineNo}: expected an event with "type" and "ts"`, { file, line: lineNo });
    yield event;
  }
  if (bad) onTornLine?.(file, bad.line);
}

function isEventShape(v: unknown): v is Event {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string' && typeof (v as { ts?: unknown }).ts === 'number';
}

/** The header of a session that stopped before it started trading (no config or funds to give). */
function neverStarted(): RecordingHeaderInput {
  return { format: RECORDING_FORMAT, version: RECORDING_VERSION, incomplete: 'the session stopped before it started trading' } as unknown as RecordingHeaderInput;
}
