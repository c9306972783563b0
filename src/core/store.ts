/**
 * State that must survive a restart (order journal, client tag -> broker order id, modification
 * counts, strategy state, kill switch) lives behind this one interface. `MemoryStore` is the
 * default; the daemon uses the Redis implementation in src/adapters/redis. Values are plain JSON.
 * Namespaces keep components apart (`orders`, `tags`, `mods`, `strategy:<id>`, `risk`).
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Store {
  get<T extends JsonValue>(ns: string, key: string): Promise<T | undefined>;
  set(ns: string, key: string, value: JsonValue): Promise<void>;
  delete(ns: string, key: string): Promise<void>;
  /** Every key/value of a namespace (order unspecified). */
  entries<T extends JsonValue>(ns: string): Promise<Array<[string, T]>>;
  /** Atomically adds `by` to a numeric key (missing = 0) and returns the new value. */
  incr(ns: string, key: string, by?: number): Promise<number>;
  /** Appends to an append-only log (journal) and returns its new length. */
  append(ns: string, value: JsonValue): Promise<number>;
  /** Reads a log from `from` (0-based) to the end. */
  readLog<T extends JsonValue>(ns: string, from?: number): Promise<T[]>;
  close(): Promise<void>;
}

/** In-process store. Values are copied in and out, so callers cannot alias stored state. */
export class MemoryStore implements Store {
  private readonly maps = new Map<string, Map<string, string>>();
  private readonly logs = new Map<string, string[]>();

  async get<T extends JsonValue>(ns: string, key: string): Promise<T | undefined> {
    const v = this.maps.get(ns)?.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }

  async set(ns: string, key: string, value: JsonValue): Promise<void> {
    this.map(ns).set(key, JSON.stringify(value));
  }

  async delete(ns: string, key: string): Promise<void> {
    this.maps.get(ns)?.delete(key);
  }

  async entries<T extends JsonValue>(ns: string): Promise<Array<[string, T]>> {
    return [...(this.maps.get(ns) ?? [])].map(([k, v]) => [k, JSON.parse(v) as T]);
  }

  async incr(ns: string, key: string, by = 1): Promise<number> {
    const m = this.map(ns);
    const raw = m.get(key);
    const next = (raw === undefined ? 0 : Number(JSON.parse(raw))) + by;
    m.set(key, JSON.stringify(next));
    return next;
  }

  async append(ns: string, value: JsonValue): Promise<number> {
    let log = this.logs.get(ns);
    if (!log) this.logs.set(ns, (log = []));
    log.push(JSON.stringify(value));
    return log.length;
  }

  async readLog<T extends JsonValue>(ns: string, from = 0): Promise<T[]> {
    return (this.logs.get(ns) ?? []).slice(from).map((v) => JSON.parse(v) as T);
  }

  async close(): Promise<void> {}

  private map(ns: string): Map<string, string> {
    let m = this.maps.get(ns);
    if (!m) this.maps.set(ns, (m = new Map()));
    return m;
  }
}
