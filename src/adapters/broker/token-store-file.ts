/**
 * The shared broker session as a file, for every tarang process of one account on one host:
 * `<dir>/<account key>.json` (mode 0600 in a 0700 folder: it holds the access token), replaced
 * atomically (write a temp file, then rename, so a reader never sees half a file), and a lock file
 * `<account key>.lock` created with O_EXCL. A lock whose holder is dead (its pid is gone on this
 * host) or that is older than its ttl is taken over, so a killed process never blocks the others.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { chmod, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import { EMPTY_TOKEN_STATE, TokenStateSchema, TokenStoreError, parseTokenState, type TokenLock, type TokenState, type TokenStore } from './token-store.js';

/** How long an unreadable (just created, not yet written) lock file counts as held. */
const HALF_WRITTEN_GRACE_MS = 5_000;

interface LockFile {
  readonly id: string;
  readonly pid: number;
  readonly host: string;
  /** Wall ms when taken. */
  readonly at: number;
  readonly ttlMs: number;
}

export interface FileTokenStoreOptions {
  /** The folder (created 0700 when missing), e.g. `~/.tarang/sessions`. */
  readonly dir: string;
  /** From `accountKey()`. */
  readonly key: string;
  /** Wall time (lock ages). */
  readonly wallClock: Clock;
}

export class FileTokenStore implements TokenStore {
  readonly where: string;
  private readonly file: string;
  private readonly lockFile: string;

  constructor(private readonly o: FileTokenStoreOptions) {
    if (!/^[0-9a-f]{8,64}$/.test(o.key)) throw new TokenStoreError(`FileTokenStore: key must be a hex account key, got ${JSON.stringify(o.key)}`, { key: o.key });
    this.file = join(o.dir, `${o.key}.json`);
    this.lockFile = join(o.dir, `${o.key}.lock`);
    this.where = this.file;
  }

  async read(): Promise<TokenState> {
    let raw: string;
    try {
      raw = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ...EMPTY_TOKEN_STATE, rejections: [] };
      throw this.fail('cannot read', e);
    }
    return parseTokenState(raw, this.file);
  }

  async write(state: TokenState): Promise<void> {
    const text = `${JSON.stringify(TokenStateSchema.parse(state))}\n`;
    await this.ensureDir();
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(text, 'utf8');
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, this.file);
    } catch (e) {
      await unlink(tmp).catch(() => {});
      throw this.fail('cannot write', e);
    }
  }

  async tryLock(ttlMs: number): Promise<TokenLock | undefined> {
    await this.ensureDir();
    const mine: LockFile = { id: randomBytes(8).toString('hex'), pid: process.pid, host: hostname(), at: this.o.wallClock.now(), ttlMs };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fh = await open(this.lockFile, 'wx', 0o600);
        try {
          await fh.writeFile(JSON.stringify(mine), 'utf8');
        } finally {
          await fh.close();
        }
        return { release: () => this.release(mine.id) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw this.fail('cannot create the lock file', e);
      }
      const held = await this.readLock();
      if (held ? !this.stale(held) : await this.young()) return undefined;
      // Stale (or unreadable half-written by a process that died mid-write): take it over. Re-read
      // just before removing, so a lock another process took over a moment ago is left alone.
      const again = await this.readLock();
      if (again && held && again.id !== held.id) return undefined;
      await unlink(this.lockFile).catch(() => {});
    }
    return undefined;
  }

  async close(): Promise<void> {}

  private async release(id: string): Promise<void> {
    const held = await this.readLock();
    if (held?.id === id) await unlink(this.lockFile).catch(() => {});
  }

  private async readLock(): Promise<LockFile | undefined> {
    try {
      const raw = JSON.parse(await readFile(this.lockFile, 'utf8')) as Partial<LockFile>;
      if (typeof raw.id !== 'string' || typeof raw.pid !== 'number' || typeof raw.at !== 'number' || typeof raw.ttlMs !== 'number' || typeof raw.host !== 'string') return undefined;
      return raw as LockFile;
    } catch {
      return undefined;
    }
  }

  /** An unreadable lock file is being written by its creator unless it is older than a few seconds. */
  private async young(): Promise<boolean> {
    try {
      return this.o.wallClock.now() - (await stat(this.lockFile)).mtimeMs < HALF_WRITTEN_GRACE_MS;
    } catch {
      return false;
    }
  }

  private stale(lock: LockFile): boolean {
    if (this.o.wallClock.now() - lock.at >= lock.ttlMs) return true;
    if (lock.host !== hostname()) return false;
    try {
      process.kill(lock.pid, 0);
      return false;
    } catch (e) {
      // EPERM: alive but someone else's; ESRCH: gone.
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  private async ensureDir(): Promise<void> {
    try {
      await mkdir(this.o.dir, { recursive: true, mode: 0o700 });
      await chmod(this.o.dir, 0o700).catch(() => {});
    } catch (e) {
      throw this.fail('cannot create the folder for', e);
    }
  }

  private fail(what: string, e: unknown): TokenStoreError {
    return new TokenStoreError(`${what} the shared broker session ${this.file}: ${(e as Error).message}`, { file: this.file }, { cause: e });
  }
}
