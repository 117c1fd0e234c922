import { formatMicros, parseMicros } from '../ids.js';
import type { Logger } from '../services.js';
import type { StoreFs } from '../store/store-fs.js';
import { decodeEntry, encodeEntry, idOf, nextLine } from './entry-text.js';
import { entryOf, type Captured } from './capture.js';
import { LogFile } from './log-file.js';
import type { RequestLogRecord } from './records.js';

// The request log of one emulator: the newest --request-log N entries, oldest first. It is part
// of the world (snapshots carry it, reset and restore replace it: world.ts), but it lives beside
// the store: an entry costs no transaction and no journal line.
//
// Nor does it cost the garbage collector: an entry is its text (entry-text.ts), written once into
// a chunk of memory outside the JS heap, and the disk gets those same bytes (log-file.ts). Held
// as objects on the heap, 10,000 entries made every request pay for the collector copying and
// marking them (a quarter more CPU per GET, measured). What stays on the heap is what the filters
// and retention read: numbers in typed arrays, and the path and trace id strings. A reader parses
// only the entries it returns (a page of 20, an entry by id).
//
// A request is captured as it is answered (record.ts: references, no text) and becomes an entry
// in a batch, within SETTLE_MS or before anything reads the log (`settle`): redaction and encoding
// run many at a time, and the captures die young. Bodies are redacted then, before the text is
// made (redact.ts): no secret is ever written into the log's memory or its files.

/** What the filters and retention read of one entry, without parsing it. */
export interface LoggedRequest {
  /** `at` as microseconds since the epoch (the list's cursor). */
  micros: number;
  at_ms: number;
  method: string;
  path: string;
  status: number;
  environment: RequestLogRecord['environment'];
  key_name: string | null;
  trace_id: string;
  /** Position in the log (for `read`). */
  seq: number;
}

type Listener = (record: RequestLogRecord) => void;

export interface RequestLogOptions {
  /** --request-log N: the most entries kept; 0 records nothing (entries already there stay). */
  limit: number;
  /** Where the log is written (<data dir>/request-log); null keeps it in memory only. */
  dir: string | null;
  fsync?: boolean;
  fs?: StoreFs;
  log: Logger;
}

/** Memory for entries' text comes in chunks this big (an entry bigger than that gets its own). */
const CHUNK_BYTES = 1 << 20;
/** Waiting entries are written to disk once this many wait, or FLUSH_MS after the first. */
const FLUSH_ENTRIES = 256;
const FLUSH_MS = 250;
/** Captured requests become entries once this many wait, or SETTLE_MS after the first. */
const SETTLE_CAPTURES = 128;
const SETTLE_MS = 10;

export class RequestLog {
  // The entries, a ring of columns: entry `seq` (0, 1, 2, … for the log's life) is at slot
  // seq & mask. `head` is the oldest kept, `tail` the next to come, `written` the first not on disk.
  private mask = 0;
  private head = 0;
  private tail = 0;
  private written = 0;
  private micros = new Float64Array(0);
  private atMs = new Float64Array(0);
  private statusCode = new Float64Array(0);
  private offset = new Int32Array(0);
  private bytes = new Int32Array(0);
  private chunk: Array<Buffer | undefined> = [];
  private method: string[] = [];
  private path: string[] = [];
  private trace: string[] = [];
  private keyName: Array<string | null> = [];
  private environment: Array<RequestLogRecord['environment']> = [];
  /** An id that is not the one `at` gives (a restored world's), by slot; almost always empty. */
  private customId: Array<string | undefined> = [];

  /** Where new entries' text goes. */
  private current: Buffer | null = null;
  private used = 0;

  private readonly listeners = new Set<Listener>();
  private readonly file: LogFile | null;
  private timer: NodeJS.Timeout | undefined;
  private captured: Captured[] = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private settling = false;

  constructor(private readonly options: RequestLogOptions) {
    this.file =
      options.dir === null
        ? null
        : LogFile.load(
            options.dir,
            {
              fs: options.fs,
              fsync: options.fsync,
              log: options.log,
              // A quarter of the log per segment: the files hold about 1.25 N entries at most.
              segmentBytes: Math.max(CHUNK_BYTES, Math.ceil(options.limit / 4) * 1024),
            },
            (buf) => this.takeFile(buf),
          );
    this.written = this.tail;
    this.cut();
  }

  get size(): number {
    this.settle();
    return this.count;
  }

  private get count(): number {
    return this.tail - this.head;
  }

  /** Takes one answered request; it becomes an entry within SETTLE_MS (or at the next read). */
  capture(c: Captured): void {
    if (this.options.limit === 0) return;
    this.captured.push(c);
    if (this.captured.length >= SETTLE_CAPTURES) this.settle();
    else if (this.settleTimer === undefined) {
      this.settleTimer = setTimeout(() => this.settle(), SETTLE_MS);
      this.settleTimer.unref();
    }
  }

  /** Makes the captured requests entries: redacted, encoded, kept, told to the listeners. */
  settle(): void {
    if (this.settling || this.captured.length === 0) return;
    this.settling = true;
    clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    const batch = this.captured;
    this.captured = [];
    try {
      for (const c of batch) {
        let record: RequestLogRecord;
        try {
          record = entryOf(c);
          this.put(record, c.micros, true, encodeEntry(record, c.micros, true));
        } catch (err) {
          // The log is a witness: an entry that cannot be made costs the entry, not the answer.
          this.options.log.warn(`request log: entry not kept (${(err as Error).message})`);
          continue;
        }
        this.cut();
        for (const listener of this.listeners) {
          try {
            listener(record);
          } catch (err) {
            console.error('[emulator] a request log listener failed (the entry itself is kept):', err);
          }
        }
      }
    } finally {
      this.settling = false;
    }
    this.scheduleWrite();
  }

  /** Called with every entry added from now on (the live stream, waitForRequest, the scheduler). */
  onEntry(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Newest first. */
  *newestFirst(): Generator<LoggedRequest> {
    this.settle();
    for (let seq = this.tail - 1; seq >= this.head; seq--) yield this.view(seq);
  }

  /** Oldest first. */
  *oldestFirst(): Generator<LoggedRequest> {
    this.settle();
    for (let seq = this.head; seq < this.tail; seq++) yield this.view(seq);
  }

  oldest(): LoggedRequest | undefined {
    this.settle();
    return this.count > 0 ? this.view(this.head) : undefined;
  }

  newest(): LoggedRequest | undefined {
    this.settle();
    return this.count > 0 ? this.view(this.tail - 1) : undefined;
  }

  /** The whole entry, parsed from its text. */
  read(entry: Pick<LoggedRequest, 'seq'>): RequestLogRecord {
    const slot = entry.seq & this.mask;
    return decodeEntry(this.chunk[slot]!, this.offset[slot], this.offset[slot] + this.bytes[slot])!.record;
  }

  get(id: string): RequestLogRecord | undefined {
    this.settle();
    for (let seq = this.tail - 1; seq >= this.head; seq--) {
      const slot = seq & this.mask;
      if ((this.customId[slot] ?? idOf(formatMicros(this.micros[slot]))) === id) return this.read({ seq });
    }
    return undefined;
  }

  /** Every entry, oldest first (a snapshot of the world). */
  records(): RequestLogRecord[] {
    this.settle();
    const out: RequestLogRecord[] = [];
    for (let seq = this.head; seq < this.tail; seq++) out.push(this.read({ seq }));
    return out;
  }

  /** Drops the oldest entries while `expired` says so (retention); returns how many went. */
  dropOldestWhile(expired: (e: LoggedRequest) => boolean): number {
    this.settle();
    let n = 0;
    while (this.count > 0 && expired(this.view(this.head))) {
      this.drop();
      n++;
    }
    if (n > 0) this.file?.forget(this.oldestMicros());
    return n;
  }

  /**
   * The world was replaced (reset: [], restore: the snapshot's entries): these entries, in time
   * order and cut to the newest N, are the log from now on, in memory and on disk.
   */
  replace(records: readonly RequestLogRecord[]): void {
    // Requests answered before the world was replaced belong to the old world's log.
    this.captured = [];
    while (this.count > 0) this.drop();
    const sorted = records.map((record) => ({ record, micros: parseMicros(record.at) })).sort((a, b) => a.micros - b.micros);
    const { limit } = this.options;
    for (const { record, micros } of limit > 0 ? sorted.slice(-limit) : sorted) this.put(record, micros, false, encodeEntry(record, micros, false));
    const written = this.file?.startWorld(this.parts(this.head), this.newest()?.micros ?? -Infinity) ?? true;
    this.written = written ? this.tail : this.head;
    if (!written) this.scheduleWrite();
  }

  /** Writes every entry still waiting in memory (a snapshot, a compaction, the stop). */
  flush(): void {
    this.settle();
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file || this.written >= this.tail) return;
    const from = Math.max(this.written, this.head);
    if (from < this.tail && !this.file.write(this.parts(from), this.micros[(this.tail - 1) & this.mask], this.oldestMicros())) {
      this.scheduleWrite();
      return;
    }
    this.written = this.tail;
  }

  /** What GET /_emulator/metrics reports. */
  status(): { entries: number; unwritten: number; write_error: string | null } {
    this.settle();
    return { entries: this.count, unwritten: this.file ? this.tail - Math.max(this.written, this.head) : 0, write_error: this.file?.failure ?? null };
  }

  /** Writes what waits and closes the file (after the last request was answered). */
  close(): void {
    this.flush();
    this.file?.close();
  }

  private view(seq: number): LoggedRequest {
    const slot = seq & this.mask;
    return {
      micros: this.micros[slot],
      at_ms: this.atMs[slot],
      method: this.method[slot],
      path: this.path[slot],
      status: this.statusCode[slot],
      environment: this.environment[slot],
      key_name: this.keyName[slot],
      trace_id: this.trace[slot],
      seq,
    };
  }

  private oldestMicros(): number {
    return this.count > 0 ? this.micros[this.head & this.mask] : Infinity;
  }

  /**
   * Files one entry at the tail: its text goes to the current chunk, unless its bytes are
   * already in memory (`buf`, from a file read at start). `made`: the emulator made it now.
   */
  private put(r: RequestLogRecord, micros: number, made: boolean, text: string, buf?: Buffer, at?: number, length?: number): void {
    if (buf === undefined) {
      // A chunk has room when it can take the text at 3 bytes a character (UTF-8's most for one
      // UTF-16 unit), or, failing that, its exact size.
      if (this.current === null || (this.used + text.length * 3 > this.current.length && this.used + Buffer.byteLength(text) > this.current.length)) {
        this.current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, Buffer.byteLength(text)));
        this.used = 0;
      }
      buf = this.current;
      at = this.used;
      length = buf.write(text, at);
      this.used += length;
    }
    if (this.count === this.chunk.length) this.grow();
    const slot = this.tail & this.mask;
    this.micros[slot] = micros;
    this.atMs[slot] = r.at_ms;
    this.statusCode[slot] = r.status;
    this.offset[slot] = at!;
    this.bytes[slot] = length!;
    this.chunk[slot] = buf;
    this.method[slot] = r.method;
    this.path[slot] = r.path;
    this.trace[slot] = r.trace_id;
    this.keyName[slot] = r.key_name;
    this.environment[slot] = r.environment;
    this.customId[slot] = made || r.id === idOf(formatMicros(micros)) ? undefined : r.id;
    this.tail++;
  }

  /** Doubles the ring (a power of two: slots are seq & mask). */
  private grow(): void {
    const capacity = Math.max(1024, this.chunk.length * 2);
    const { head, tail, mask } = this;
    const to = capacity - 1;
    // Each column into one twice as long, every kept entry at its new slot.
    const move = <A extends { [i: number]: unknown }>(old: A, fresh: A): A => {
      for (let seq = head; seq < tail; seq++) fresh[seq & to] = old[seq & mask];
      return fresh;
    };
    this.micros = move(this.micros, new Float64Array(capacity));
    this.atMs = move(this.atMs, new Float64Array(capacity));
    this.statusCode = move(this.statusCode, new Float64Array(capacity));
    this.offset = move(this.offset, new Int32Array(capacity));
    this.bytes = move(this.bytes, new Int32Array(capacity));
    this.chunk = move(this.chunk, new Array<Buffer | undefined>(capacity));
    this.method = move(this.method, new Array<string>(capacity));
    this.path = move(this.path, new Array<string>(capacity));
    this.trace = move(this.trace, new Array<string>(capacity));
    this.keyName = move(this.keyName, new Array<string | null>(capacity));
    this.environment = move(this.environment, new Array<RequestLogRecord['environment']>(capacity));
    this.customId = move(this.customId, new Array<string | undefined>(capacity));
    this.mask = to;
  }

  /** Forgets the oldest entry (its chunk is freed by the collector once no entry is in it). */
  private drop(): void {
    const slot = this.head & this.mask;
    this.chunk[slot] = undefined;
    this.path[slot] = '';
    this.trace[slot] = '';
    this.customId[slot] = undefined;
    this.head++;
  }

  /** Keeps the newest `limit` entries (none dropped with a limit of 0: the log is off, not emptied). */
  private cut(): void {
    const { limit } = this.options;
    if (limit === 0) return;
    while (this.count > limit) this.drop();
  }

  /** The bytes of entries `from`… to the tail, as few slices as they are contiguous in. */
  private parts(from: number): Buffer[] {
    const out: Buffer[] = [];
    let buf: Buffer | undefined;
    let start = 0;
    let end = 0;
    for (let seq = from; seq < this.tail; seq++) {
      const slot = seq & this.mask;
      if (this.chunk[slot] === buf && this.offset[slot] === end) {
        end += this.bytes[slot];
        continue;
      }
      if (buf) out.push(buf.subarray(start, end));
      buf = this.chunk[slot];
      start = this.offset[slot];
      end = start + this.bytes[slot];
    }
    if (buf) out.push(buf.subarray(start, end));
    return out;
  }

  private scheduleWrite(): void {
    if (!this.file) return;
    if (this.tail - this.written >= FLUSH_ENTRIES && this.file.failure === null) return this.flush();
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.file.failure === null ? FLUSH_MS : LogFile.RETRY_MS);
    this.timer.unref();
  }

  /**
   * Takes the entries of one file of the log (at start): they stay in the file's buffer. Returns
   * where a torn last entry starts (the file's length when it ends whole) and the newest entry's
   * stamp; damaged entries in between are skipped, and counted in one warning.
   */
  private takeFile(buf: Buffer): { whole: number; newest: number } {
    let at = 0;
    let refused = 0;
    let newest = -Infinity;
    while (at < buf.length) {
      const entry = decodeEntry(buf, at);
      if (entry) {
        this.put(entry.record, entry.micros, false, '', buf, at, entry.end - at);
        newest = entry.micros;
        at = entry.end;
        continue;
      }
      const next = nextLine(buf, at);
      // Nothing whole after it: a kill -9 in the middle of an append.
      if (next === -1) break;
      refused++;
      at = next;
    }
    if (refused > 0) this.options.log.warn(`request log: ${refused} damaged entr${refused === 1 ? 'y' : 'ies'} in ${this.options.dir} skipped`);
    return { whole: at, newest };
  }
}
