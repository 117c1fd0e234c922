import { formatMicros, parseMicros } from '../ids.js';
import type { Logger } from '../services.js';
import type { StoreFs } from '../store/store-fs.js';
import { decodeDropped, decodeEntry, droppedLine, idOf, nextLine, recordText, type EntryText } from './entry-text.js';
import { capturedText, type Captured } from './capture.js';
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

type Listener = (entry: LoggedRequest) => void;
/** What the columns keep of an entry. */
type Filed = Pick<RequestLogRecord, 'at_ms' | 'status' | 'method' | 'path' | 'trace_id' | 'key_name' | 'environment'>;

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
const SPARE_CHUNKS = 2;
/** Waiting entries are written to disk once this many wait, or FLUSH_MS after the first. */
const FLUSH_ENTRIES = 256;
const FLUSH_MS = 250;
/** Captured requests become entries once this many wait, or SETTLE_MS after the first. */
const SETTLE_CAPTURES = 128;
const SETTLE_MS = 10;
const TAB = 9;
const NEWLINE = 10;

export class RequestLog {
  // The entries, a ring of columns: entry `seq` (0, 1, 2, … for the log's life) is at slot
  // seq & mask. `head` is the oldest kept, `tail` the next to come, `written` the first not on disk.
  private mask = 0;
  private head = 0;
  private tail = 0;
  private written = 0;
  /** The stamp of the newest entry that left the log (-Infinity: none), and the one the files know. */
  private dropped = -Infinity;
  private droppedWritten = -Infinity;
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

  /**
   * The chunks new entries' text went to, oldest first (the last is being filled), each with the
   * seq of its last entry; a chunk whose entries have all left is used again (a fresh 1 MiB of
   * memory costs page faults, and freeing it a collection), up to SPARE_CHUNKS kept spare.
   */
  private chunks: Array<{ buf: Buffer; last: number }> = [];
  private spare: Buffer[] = [];
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
    // What left the log before (its files may still hold it) stays out.
    const gone = this.dropped;
    while (this.count > 0 && this.micros[this.head & this.mask] <= gone) this.drop();
    this.dropped = this.droppedWritten = gone;
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
        try {
          const text = capturedText(c);
          this.put(c.micros, undefined, { at_ms: c.at_ms, status: c.status, method: c.method, path: c.path, trace_id: c.trace_id, key_name: c.key?.name ?? null, environment: c.key?.environment ?? null }, text);
        } catch (err) {
          // The log is a witness: an entry that cannot be made costs the entry, not the answer.
          this.options.log.warn(`request log: entry not kept (${(err as Error).message})`);
          continue;
        }
        this.cut();
        if (this.listeners.size === 0) continue;
        const entry = this.view(this.tail - 1);
        for (const listener of this.listeners) {
          try {
            listener(entry);
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

  /** Called with every entry added from now on (the live stream, waitForRequest, the scheduler); `read` gives the whole entry. */
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

  /** Whether the entry is the oldest the log holds (retention's due time is the oldest's). */
  isOldest(entry: Pick<LoggedRequest, 'seq'>): boolean {
    return entry.seq === this.head;
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

  /** The entry's id (without parsing it). */
  idOf(entry: Pick<LoggedRequest, 'seq'>): string {
    const slot = entry.seq & this.mask;
    return this.customId[slot] ?? idOf(formatMicros(this.micros[slot]));
  }

  get(id: string): RequestLogRecord | undefined {
    this.settle();
    for (let seq = this.tail - 1; seq >= this.head; seq--) {
      if (this.idOf({ seq }) === id) return this.read({ seq });
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
    if (n > 0) {
      this.file?.forget(this.oldestMicros());
      this.scheduleWrite();
    }
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
    // A new world's files: nothing has left them yet.
    this.dropped = this.droppedWritten = -Infinity;
    const sorted = records.map((record) => ({ record, micros: parseMicros(record.at) })).sort((a, b) => a.micros - b.micros);
    const { limit } = this.options;
    for (const { record, micros } of limit > 0 ? sorted.slice(-limit) : sorted) {
      const text = recordText(record, micros);
      this.put(micros, text.fields.id ?? undefined, record, text);
    }
    const written = this.file?.startWorld(this.parts(this.head, null), this.newest()?.micros ?? -Infinity) ?? true;
    this.written = written ? this.tail : this.head;
    if (!written) this.scheduleWrite();
  }

  /** Writes every entry still waiting in memory (a snapshot, a compaction, the stop). */
  flush(): void {
    this.settle();
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file || this.allWritten) return;
    const from = Math.max(this.written, this.head);
    // After the entries, what has left the log since the last write.
    const dropped = this.dropped;
    const parts = this.parts(from, dropped > this.droppedWritten ? droppedLine(dropped) : null);
    if (!this.file.write(parts, from < this.tail ? this.micros[(this.tail - 1) & this.mask] : -Infinity, this.oldestMicros())) {
      this.scheduleWrite();
      return;
    }
    this.written = this.tail;
    this.droppedWritten = dropped;
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
   * Files one entry at the tail: `text` goes into the current chunk, unless the entry's bytes are
   * already in memory (`buf`, a file read at start). `customId`: an id that is not the one
   * `micros` gives (a restored world's).
   */
  private put(micros: number, customId: string | undefined, f: Filed, text: EntryText | null, buf?: Buffer, at?: number, length?: number): void {
    if (text !== null) {
      // The head's bytes: measured only when its most (3 a character) would not fit.
      const bodies = Math.max(text.requestBytes, 0) + Math.max(text.responseBytes, 0) + 2;
      let current = this.chunks[this.chunks.length - 1];
      let total = text.head.length * 3 + bodies;
      if (current !== undefined && this.used + total > current.buf.length) total = Buffer.byteLength(text.head) + bodies;
      if (current === undefined || this.used + total > current.buf.length) {
        current = { buf: (total <= CHUNK_BYTES && this.spare.pop()) || Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, total)), last: 0 };
        this.chunks.push(current);
        this.used = 0;
      }
      current.last = this.tail;
      // The parts one after the other (joining them first would copy the bodies once more).
      buf = current.buf;
      at = this.used;
      let o = at + buf.write(text.head, at);
      buf[o++] = TAB;
      if (text.request !== null) o += buf.write(text.request, o);
      if (text.response !== null) o += buf.write(text.response, o);
      buf[o++] = NEWLINE;
      length = o - at;
      this.used = o;
    }
    if (this.count === this.chunk.length) this.grow();
    const slot = this.tail & this.mask;
    this.micros[slot] = micros;
    this.atMs[slot] = f.at_ms;
    this.statusCode[slot] = f.status;
    this.offset[slot] = at!;
    this.bytes[slot] = length!;
    this.chunk[slot] = buf;
    this.method[slot] = f.method;
    this.path[slot] = f.path;
    this.trace[slot] = f.trace_id;
    this.keyName[slot] = f.key_name;
    this.environment[slot] = f.environment;
    this.customId[slot] = customId;
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

  /** Forgets the oldest entry; a chunk none of whose entries is left goes spare (or to the collector). */
  private drop(): void {
    const slot = this.head & this.mask;
    this.dropped = this.micros[slot];
    this.chunk[slot] = undefined;
    this.path[slot] = '';
    this.trace[slot] = '';
    this.customId[slot] = undefined;
    this.head++;
    while (this.chunks.length > 1 && this.chunks[0].last < this.head) {
      const { buf } = this.chunks.shift()!;
      if (buf.length === CHUNK_BYTES && this.spare.length < SPARE_CHUNKS) this.spare.push(buf);
    }
  }

  /** Keeps the newest `limit` entries (none dropped with a limit of 0: the log is off, not emptied). */
  private cut(): void {
    const { limit } = this.options;
    if (limit === 0) return;
    while (this.count > limit) this.drop();
  }

  /**
   * The bytes of entries `from`… to the tail, as few slices as they are contiguous in, then `line`
   * (what has left the log). The line is written into the free space after the newest entry when
   * it ends there, as it does once the log is full: the write is then one slice, not a copy of
   * the whole batch joined with it (a third of an entry's cost of writing, measured).
   */
  private parts(from: number, line: string | null): Buffer[] {
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
    if (line !== null) {
      const current = this.chunks[this.chunks.length - 1];
      // `used` stays where it is: the next entry writes over the line, which is on disk by then.
      if (buf !== undefined && buf === current?.buf && end === this.used && end + line.length <= buf.length) end += buf.write(line, end, 'latin1');
      else {
        if (buf) out.push(buf.subarray(start, end));
        buf = Buffer.from(line, 'latin1');
        start = 0;
        end = buf.length;
      }
    }
    if (buf) out.push(buf.subarray(start, end));
    return out;
  }

  /** Whether the files hold every entry and know of every one that left. */
  private get allWritten(): boolean {
    return this.written >= this.tail && this.droppedWritten >= this.dropped;
  }

  private scheduleWrite(): void {
    if (!this.file || this.allWritten) return;
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
      const gone = decodeDropped(buf, at);
      if (gone) {
        this.dropped = Math.max(this.dropped, gone.micros);
        at = gone.end;
        continue;
      }
      const entry = decodeEntry(buf, at);
      if (entry) {
        this.put(entry.micros, entry.customId ?? undefined, entry.record, null, buf, at, entry.end - at);
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
