import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, truncateSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RequestLogRecord as RecordSchema } from '../../contract/records/system.js';
import { parseMicros } from '../ids.js';
import type { Logger } from '../services.js';
import { Appender } from '../store/appender.js';
import { storeFsFromEnv } from '../store/store-fs.js';
import { describeFsCode } from '../store/store-write-error.js';
import { codeOf, messageOf } from '../../contract/errors.js';
import type { RequestLogRecord } from './records.js';

// The request log of one emulator: a ring of the newest --request-log N entries, oldest first,
// each redacted as it was made (record.ts). Part of the world (snapshots carry it; reset and
// restore replace it: world.ts), it lives beside the store, never in its journal: an entry is a
// diagnostic, not an acknowledged write. An entry is its JSON line as a string (what the file
// gets, but the newline) beside the fields the filters read: a string is one object the collector never
// scans, and unlike a Buffer per entry it adds no external memory (which makes V8 collect more
// often); a batch is encoded to bytes once, at its write.
// Readers parse only what they return. Entries older than --retain-days leave as the log is
// read or written.
//
// On disk: <data dir>/request-log/requests.ndjson (private as the data dir is), appended through
// the store's Appender in batches (250 ms or 256 entries; all at a snapshot, a compaction, a
// stop): a kill -9 loses at most the newest batch. Lines {"dropped_to":µs} say what has left
// (the bound, retention), so a start never brings it back. Once the file holds as many entries
// as the log, it becomes requests.old.ndjson and a new one begins: at most about twice the log
// on disk, no entry written twice. A replaced world appends the whole new log after a line
// {"whole":true}, which tells a start to forget the lines before it.

/** An entry: what the filters read, `at` as µs since the epoch (the list's cursor), and the record as a line of JSON. */
export type LoggedRequest = Pick<RequestLogRecord, 'id' | 'at_ms' | 'method' | 'path' | 'status' | 'environment' | 'key_name' | 'trace_id'> & { micros: number; line: string };

export interface RequestLogOptions {
  /** --request-log N; 0 records nothing (the entries already there stay). */
  limit: number;
  /** <data dir>/request-log; null keeps the log in memory only. */
  dir: string | null;
  log: Logger;
  clock: { now(): number };
  retainDays: number;
  /** --fsync: the file is fsynced at stop (batches are not: a power loss costs the last ones). */
  fsync?: boolean;
}

const FLUSH_ENTRIES = 256;
const FLUSH_MS = 250;
const RETRY_MS = 1_000; // after a refused write
const DAY_MS = 24 * 60 * 60 * 1000;
const WHOLE = '{"whole":true}';

export class RequestLog {
  /** The entries from `head` on are kept; those before it have left (the array sheds them now and then). */
  private entries: LoggedRequest[] = [];
  private head = 0;
  /** The first entry not on disk yet. */
  private written = 0;
  /** Stamp of the newest entry that left, and the one the file knows of. */
  private dropped = -Infinity;
  private droppedWritten = -Infinity;
  /** Entries in the current file (it becomes the old one once they are as many as the log). */
  private lines = 0;
  private readonly listeners = new Set<(e: LoggedRequest) => void>();
  private readonly out = new Appender(storeFsFromEnv());
  private timer: NodeJS.Timeout | undefined;
  /** Why the last write failed, until one succeeds (GET /_emulator/metrics shows it). */
  private failure: string | null = null;
  private readonly file: string | null;

  constructor(private readonly options: RequestLogOptions) {
    this.file = options.dir === null ? null : join(options.dir, 'requests.ndjson');
    let damaged = 0;
    for (const line of this.load()) {
      try {
        const value: unknown = JSON.parse(line);
        if (value && typeof value === 'object' && 'dropped_to' in value && typeof value.dropped_to === 'number') this.dropped = Math.max(this.dropped, value.dropped_to);
        else this.push(RecordSchema.parse(value));
      } catch {
        damaged++;
      }
    }
    if (damaged > 0) options.log.warn(`request log: ${damaged} damaged entr${damaged === 1 ? 'y' : 'ies'} in ${this.file} skipped`);
    // What left before (the file may still hold it) stays out.
    while (this.count > 0 && this.entries[this.head].micros <= this.dropped) this.drop();
    this.droppedWritten = this.dropped;
    this.written = this.entries.length;
    this.trim();
  }

  private get count(): number {
    return this.entries.length - this.head;
  }

  /** Keeps a new entry (record.ts; with --request-log 0 none is made), tells the listeners, has it written soon. */
  add(record: RequestLogRecord, micros: number): void {
    const entry = this.push(record, micros);
    this.trim();
    for (const listener of this.listeners) {
      try {
        listener(entry);
      } catch (err) {
        this.options.log.warn(`a request log listener failed (the entry itself is kept): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
    if (this.entries.length - this.written >= FLUSH_ENTRIES && this.failure === null) this.flush();
    else this.scheduleWrite();
  }

  /** Called with every entry added from now on (the live stream, waitForRequest). */
  onEntry(listener: (e: LoggedRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  *newestFirst(): Generator<LoggedRequest> {
    this.trim();
    for (let n = this.entries.length - 1; n >= this.head; n--) yield this.entries[n];
  }

  *oldestFirst(): Generator<LoggedRequest> {
    this.trim();
    for (let n = this.head; n < this.entries.length; n++) yield this.entries[n];
  }

  read(entry: LoggedRequest): RequestLogRecord {
    return JSON.parse(entry.line);
  }

  get(id: string): RequestLogRecord | undefined {
    for (const e of this.newestFirst()) if (e.id === id) return this.read(e);
    return undefined;
  }

  /** Every entry, oldest first (a snapshot of the world). */
  records(): RequestLogRecord[] {
    return [...this.oldestFirst()].map((e) => this.read(e));
  }

  /** Drops the entries older than --retain-days; returns how many went (POST /_emulator/store/prune counts them). */
  expire(): number {
    const before = this.options.clock.now() - this.options.retainDays * DAY_MS;
    let n = 0;
    for (; this.count > 0 && this.entries[this.head].at_ms <= before; n++) this.drop();
    if (n > 0) this.scheduleWrite();
    return n;
  }

  /** The world was replaced (reset: [], restore: its entries): these, in time order and cut to the newest N, are the log now. */
  replace(records: readonly RequestLogRecord[]): void {
    this.entries = [];
    this.head = 0;
    const sorted = records.map((record) => ({ record, micros: parseMicros(record.at) })).sort((a, b) => a.micros - b.micros);
    for (const e of this.options.limit > 0 ? sorted.slice(-this.options.limit) : sorted) this.push(e.record, e.micros);
    this.rewrite();
  }

  /** Writes every entry still waiting in memory (a snapshot, a compaction, the stop). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.expire();
    const file = this.file;
    if (file === null || (this.written >= this.entries.length && this.droppedWritten >= this.dropped)) return;
    const lines = this.entries.slice(Math.max(this.written, this.head)).map((e) => e.line);
    const dropped = this.dropped;
    if (dropped > this.droppedWritten) lines.push(`{"dropped_to":${dropped}}`);
    if (!this.attempt(() => this.append(file, Buffer.from(`${lines.join('\n')}\n`)))) return;
    this.lines += this.entries.length - Math.max(this.written, this.head);
    this.written = this.entries.length;
    this.droppedWritten = dropped;
    if (this.lines < Math.max(this.count, FLUSH_ENTRIES)) return;
    this.out.close();
    if (this.attempt(() => renameSync(file, `${file}.old`))) this.lines = 0;
  }

  /** What GET /_emulator/metrics reports. */
  status(): { entries: number; unwritten: number; write_error: string | null } {
    this.trim();
    const unwritten = this.file === null ? 0 : this.entries.length - Math.max(this.written, this.head);
    return { entries: this.count, unwritten, write_error: this.failure };
  }

  /** After the last answer. */
  close(): void {
    this.flush();
    if (this.options.fsync) this.attempt(() => this.out.fsync());
    this.out.close();
  }

  private push(record: RequestLogRecord, micros = parseMicros(record.at)): LoggedRequest {
    const { id, at_ms, method, path, status, environment, key_name, trace_id } = record;
    const entry = { id, micros, at_ms, method, path, status, environment, key_name, trace_id, line: JSON.stringify(record) };
    this.entries.push(entry);
    return entry;
  }

  private drop(): void {
    this.dropped = Math.max(this.dropped, this.entries[this.head++].micros);
    // Shed once the dropped are half the array (a shift() each time would copy the rest each time).
    if (this.head > 1024 && this.head > this.entries.length / 2) {
      this.entries = this.entries.slice(this.head);
      this.written = Math.max(0, this.written - this.head);
      this.head = 0;
    }
  }

  /** The bound (none with --request-log 0: the log is off, not emptied) and retention. */
  private trim(): void {
    while (this.options.limit > 0 && this.count > this.options.limit) this.drop();
    this.expire();
  }

  /**
   * The whole log after a WHOLE line; then the old file goes. If the disk refuses, the current
   * file goes too (a start finds no log rather than an old world's) and the entries wait in memory.
   */
  private rewrite(): void {
    const file = this.file;
    if (file === null) return;
    const ok = this.attempt(() => this.append(file, Buffer.from([WHOLE, ...Array.from(this.oldestFirst(), (e) => e.line), ''].join('\n'))));
    if (!ok) this.out.close();
    try {
      for (const gone of ok ? [`${file}.old`] : [`${file}.old`, file]) rmSync(gone, { force: true });
    } catch {
      // A read-only disk: what is there stays (and a start may read it); nothing else can be done.
    }
    this.written = ok ? this.entries.length : this.head;
    this.lines = ok ? this.lines + this.count : 0;
    this.droppedWritten = this.dropped;
  }

  /** Appends `text` to `file` (opened, with its folder, if it is not open). */
  private append(file: string, text: Buffer): void {
    if (!this.out.isOpen) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 }); // private, like the data dir (data-dir.ts)
      this.out.open(file);
    }
    if (text.length > 0) this.out.append(text);
  }

  /** A step on the disk; false when it refused (said once, until a step succeeds again). */
  private attempt(step: () => void): boolean {
    try {
      step();
    } catch (err) {
      if (this.failure === null) {
        this.options.log.warn(`request log: entries could not be written to ${this.options.dir} (${describe(err)}); they stay in memory and are written once the disk takes them again (a kill -9 meanwhile loses them; the store is not affected)`);
      }
      this.failure = describe(err);
      this.scheduleWrite();
      return false;
    }
    if (this.failure !== null) this.options.log.info(`request log: written to ${this.options.dir} again`);
    this.failure = null;
    return true;
  }

  private scheduleWrite(): void {
    if (this.file === null || this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.failure === null ? FLUSH_MS : RETRY_MS);
    this.timer.unref();
  }

  /** The lines of the old file and the current one after the last WHOLE; a torn last line (a kill -9 mid-append) is cut off. */
  private load(): string[] {
    const file = this.file;
    if (file === null) return [];
    const lines = [`${file}.old`, file].flatMap((path) => {
      if (!existsSync(path)) return [];
      const bytes = readFileSync(path);
      const whole = bytes.lastIndexOf(10) + 1;
      try {
        if (whole < bytes.length) truncateSync(path, whole);
      } catch {
        // Read-only: the torn tail stays, and is skipped again at the next start.
      }
      const own = bytes.toString('utf8', 0, whole).split('\n').slice(0, -1);
      if (path === file) this.lines = own.length;
      return own;
    });
    return lines.slice(lines.lastIndexOf(WHOLE) + 1);
  }
}

const describe = (err: unknown) => describeFsCode(codeOf(err), messageOf(err));
