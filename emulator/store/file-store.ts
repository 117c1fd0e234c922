import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryStore, type Op } from './memory-store.js';
import { lockDataDir } from './dir-lock.js';
import { readLines } from './line-reader.js';
import { Appender } from './appender.js';
import { storeFsFromEnv, type StoreFs } from './store-fs.js';
import { StoreWriteError } from './store-write-error.js';
import type { StoredRecord } from './store.js';
import { messageOf } from '../../contract/errors.js';
import { clean } from '../../contract/redact.js';

// A store of NDJSON files that never rewrites a whole file per write, and never holds one
// whole file as a string.
//
//   snapshot.ndjson      line 1: {"svc_store":2,"segment":N}; then one {"c","v"} record a line
//   journal-<k>.ndjson   one line per committed transaction, appended with one write()
//
// Load = the snapshot, then every journal segment k >= N in order. A write is acknowledged
// only after its line is in the journal (and fsynced with --fsync); a failed append is cut
// off again (ftruncate to the length before it) and memory is rolled back, so the journal
// never keeps a torn line in its middle. Only the final line can be torn (kill -9 mid-append);
// it was never acknowledged and is dropped at load.
//
// Compaction runs while the emulator serves (journal past a size, on a timer, at close):
//   1 rotate     new writes go to journal-<N+1>
//   2 write      snapshot.ndjson.tmp from the records, in turns of ~2 ms across the event
//                loop (a whole-store JSON.stringify of 100k records stalls ~150 ms); writes
//                meanwhile go to journal-<N+1> and may or may not reach the snapshot too
//   3 fsync      the temp file (always), then
//   4 rename     it over snapshot.ndjson (and fsync the dir with --fsync)
//   5 delete     the segments < N+1
// A crash before 4 loads the old snapshot plus both segments; after 4, the new snapshot plus
// the new segment. Replaying a segment over a snapshot that already has some of its writes is
// harmless: journal ops are whole-record puts and deletes.
//
// The format before this one (store.json + journal.ndjson, written by lowdb) is still read,
// and rewritten into this one at the first open.

export const SNAPSHOT = 'snapshot.ndjson';
/** The snapshot a compaction is writing; renamed over SNAPSHOT when it is whole. */
export const SNAPSHOT_TMP = 'snapshot.ndjson.tmp';
const LEGACY_SNAPSHOT = 'store.json';
const LEGACY_JOURNAL = 'journal.ndjson';
const segmentName = (k: number) => `journal-${k}.ndjson`;
export const SEGMENT_RE = /^journal-(\d+)\.ndjson$/;
/** Work per slice of a snapshot write before it rests (see runCompaction). */
const SLICE_MS = 4;
/** Work per event-loop turn of a snapshot write; the clock is read every CHECK_EVERY records. */
const WORK_MS = 2;
const CHECK_EVERY = 16;
/** The snapshot writer's buffer: records are encoded into it, and it goes to the file when full. */
const WRITE_BUFFER_BYTES = 1 << 20;

export const COMPACTION_STEPS = ['rotated', 'writing', 'written', 'renamed', 'deleted'] as const;
type CompactionStep = (typeof COMPACTION_STEPS)[number];

interface FileStoreOptions {
  /** fsync the journal on every commit, and the data dir at compaction (survives power loss). */
  fsync?: boolean;
  /** Compact once the current journal segment passes this many bytes (default 64 MiB). */
  compactAtBytes?: number;
  /** Also compact every this many ms of real time if the journal holds anything (default 10 min; 0 = never). */
  compactEveryMs?: number;
  /** The filesystem seam (tests inject failures through it). */
  fs?: StoreFs;
  /** Records written per event-loop turn while writing a snapshot. */
  chunkRecords?: number;
  /** Told at each compaction slice: a slice may stall the loop, so the event-loop probes watch (performance/loop-monitor.ts). */
  onActivity?: () => void;
}

interface SnapshotHeader {
  svc_store: 2;
  segment: number;
}

export class FileStore extends MemoryStore {
  /** The current segment: whole, acknowledged lines only (appender.ts). */
  private readonly journal: Appender;
  private segment = 0;
  private compacting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly fs: StoreFs;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly options: FileStoreOptions,
  ) {
    super();
    this.fs = options.fs ?? storeFsFromEnv();
    this.journal = new Appender(this.fs);
  }

  static async open(dir: string, options: FileStoreOptions = {}): Promise<FileStore> {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // private: it holds keys (data-dir.ts)
    const unlock = lockDataDir(dir);
    const store = new FileStore(dir, options);
    store.unlock = unlock;
    try {
      await store.load();
    } catch (err) {
      store.closeJournal();
      unlock();
      throw err;
    }
    const every = options.compactEveryMs ?? 10 * 60_000;
    if (every > 0) {
      // Real time, not the emulator clock: compaction is housekeeping, not domain behaviour.
      store.timer = setInterval(() => {
        if (store.journal.size > 0) store.compactInBackground();
      }, every);
      store.timer.unref();
    }
    return store;
  }

  /** Releases the data dir's lock (see dir-lock.ts). */
  private unlock: () => void = () => {};

  private path(name: string): string {
    return join(this.dir, name);
  }

  private segmentsOnDisk(): number[] {
    return readdirSync(this.dir)
      .map((name) => SEGMENT_RE.exec(name)?.[1])
      .filter((k): k is string => k !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  private async load(): Promise<void> {
    let from = 0;
    let needsCompaction = false;
    if (existsSync(this.path(SNAPSHOT))) {
      from = this.loadSnapshot();
    } else if (existsSync(this.path(LEGACY_SNAPSHOT))) {
      // The lowdb-era format: one JSON document (small enough then to be read whole).
      const legacy = JSON.parse(readFileSync(this.path(LEGACY_SNAPSHOT), 'utf8')) as { collections: Record<string, Record<string, StoredRecord>> };
      for (const [c, records] of Object.entries(legacy.collections)) for (const v of Object.values(records)) this.apply({ c, id: v.id, v });
      needsCompaction = true;
    }
    if (existsSync(this.path(LEGACY_JOURNAL))) {
      this.replay(LEGACY_JOURNAL, true);
      needsCompaction = true;
    }
    const segments = this.segmentsOnDisk().filter((k) => k >= from);
    // No compaction at open for a journal left by kill -9: the emulator keeps appending to the
    // newest segment (start-up after a crash costs only the replay); the size trigger, the
    // timer or the next clean stop compacts it.
    for (let i = 0; i < segments.length; i++) this.replay(segmentName(segments[i]), i === segments.length - 1);
    this.segment = segments.length ? segments[segments.length - 1] : from;
    this.openSegment(this.segment);
    if (needsCompaction || !existsSync(this.path(SNAPSHOT))) await this.compact();
  }

  private loadSnapshot(): number {
    let header: SnapshotHeader | undefined;
    for (const line of readLines(this.path(SNAPSHOT))) {
      // The snapshot is renamed into place only after it was written and fsynced whole.
      if (!line.terminated) throw new Error(`${this.path(SNAPSHOT)} is damaged: line ${line.number} is incomplete`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(line.text);
      } catch {
        throw new Error(`${this.path(SNAPSHOT)} is damaged at line ${line.number}`);
      }
      if (!header) {
        header = parsed as SnapshotHeader;
        if (header.svc_store !== 2 || !Number.isInteger(header.segment)) throw new Error(`${this.path(SNAPSHOT)}: unknown format (line 1)`);
        continue;
      }
      const { c, v } = parsed as { c: string; v: StoredRecord };
      this.apply({ c, id: v.id, v });
    }
    if (!header) throw new Error(`${this.path(SNAPSHOT)} is empty`);
    return header.segment;
  }

  /** Replays one journal file; returns how many transactions it held. */
  private replay(name: string, last: boolean): number {
    const path = this.path(name);
    let count = 0;
    let torn: { offset: number; number: number } | undefined;
    for (const line of readLines(path)) {
      if (torn) throw new Error(`journal ${path} is damaged at line ${torn.number} (a torn line that is not the last one)`);
      if (line.text === '' && line.terminated) continue;
      let ops: Op[] | undefined;
      if (line.terminated) {
        try {
          ops = JSON.parse(line.text) as Op[];
        } catch {
          ops = undefined;
        }
      }
      if (!ops) {
        torn = { offset: line.offset, number: line.number };
        continue;
      }
      for (const op of ops) this.apply(op);
      count++;
    }
    if (torn) {
      // A kill mid-append leaves the final line torn; it was never acknowledged. Only the
      // newest segment may end that way: an older one was complete when it was rotated away.
      if (!last) throw new Error(`journal ${path} is damaged at line ${torn.number}`);
      truncateSync(path, torn.offset);
    }
    return count;
  }

  private openSegment(k: number): void {
    this.journal.open(this.path(segmentName(k)));
    this.segment = k;
  }

  private closeJournal(): void {
    this.journal.close();
  }

  protected override persist(ops: Op[]): void {
    if (!this.journal.isOpen) throw new StoreWriteError(undefined, 'the store is closed');
    try {
      // Whole or not at all (appender.ts); the caller rolls memory back on a throw.
      this.journal.append(JSON.stringify(ops) + '\n', this.options.fsync);
    } catch (err) {
      throw StoreWriteError.from(err, 'the change could not be written to the journal');
    }
    if (this.journal.size >= (this.options.compactAtBytes ?? 64 * 1024 * 1024)) this.compactInBackground();
  }

  /** Starts a compaction unless one runs; a failure is logged and retried at the next trigger. */
  private compactInBackground(): void {
    if (this.compacting || this.closed) return;
    this.compact().catch((err) => process.stderr.write(`[emulator] store compaction failed (the journal keeps every write; retried later): ${clean(messageOf(err))}\n`));
  }

  /** Compacts now (or joins the running compaction); see the steps at the top of this file. */
  compact(): Promise<void> {
    return (this.compacting ??= this.runCompaction().finally(() => (this.compacting = undefined)));
  }

  private async runCompaction(): Promise<void> {
    const next = this.segment + 1;
    try {
      this.openSegment(next);
    } catch (err) {
      throw StoreWriteError.from(err, 'compaction could not start a new journal segment');
    }
    await pauseForTest('rotated');
    // No frozen copy of the records (copying 500k references was one ~25 ms block): the
    // writer walks the live maps, a turn at a time. A record written after the rotation may
    // be written in its new version or not at all, and one created after it may or may not
    // be in the snapshot: either way segment `next` holds that write too and replays over the
    // snapshot, and journal ops are whole-record puts and deletes, so the load ends with the
    // same records. (Map iteration survives writes: it skips deleted keys, visits new ones.)
    const tmp = this.path(SNAPSHOT_TMP);
    const fd = this.fs.openSync(tmp, 'w');
    try {
      const out = new SnapshotWriter(fd, (f, bytes) => this.writeAll(f, bytes));
      out.text(`${JSON.stringify({ svc_store: 2, segment: next } satisfies SnapshotHeader)}\n`);
      const maxRecords = this.options.chunkRecords ?? Infinity;
      let paused = false;
      let sliceStart = performance.now();
      for (const [c, records] of this.collections) {
        const prefix = Buffer.from(`{"c":${JSON.stringify(c)},"v":`);
        const it = records.values();
        for (let done = false; !done; ) {
          // One turn of the event loop: records until WORK_MS have passed (checked every
          // CHECK_EVERY records) or chunkRecords are written, then the bytes go to the file.
          const turnStart = performance.now();
          this.options.onActivity?.();
          for (let n = 1; ; n++) {
            const r = it.next();
            if (r.done) {
              done = true;
              break;
            }
            out.record(prefix, JSON.stringify(r.value));
            if (n >= maxRecords || (n % CHECK_EVERY === 0 && performance.now() - turnStart >= WORK_MS)) break;
          }
          out.flush();
          if (!paused) {
            paused = true;
            await pauseForTest('writing');
          }
          // Requests come first: a turn yields to the event loop, and once this slice has
          // worked SLICE_MS the compaction rests twice as long (a timer, not setImmediate), so
          // it takes at most about a third of the loop while the emulator is busy.
          const worked = performance.now() - sliceStart;
          // (At close no request is left to serve: no rests.)
          if (worked >= SLICE_MS && !this.closed) {
            await new Promise<void>((ok) => setTimeout(ok, Math.ceil(2 * worked)));
            sliceStart = performance.now();
          } else await new Promise<void>((ok) => setImmediate(ok));
        }
      }
      out.flush();
      await this.fs.fsync(fd);
    } catch (err) {
      this.fs.closeSync(fd);
      rmSync(tmp, { force: true });
      throw StoreWriteError.from(err, 'compaction could not write the snapshot');
    }
    this.fs.closeSync(fd);
    await pauseForTest('written');
    await rename(tmp, this.path(SNAPSHOT));
    if (this.options.fsync) await fsyncDir(this.dir);
    await pauseForTest('renamed');
    // Unlinking a segment of hundreds of MB can take a while: off the event loop too.
    for (const k of this.segmentsOnDisk()) if (k < next) await rm(this.path(segmentName(k)), { force: true });
    await rm(this.path(LEGACY_JOURNAL), { force: true });
    await rm(this.path(LEGACY_SNAPSHOT), { force: true });
    await pauseForTest('deleted');
  }

  private writeAll(fd: number, bytes: Buffer): void {
    let written = 0;
    while (written < bytes.length) written += this.fs.writeSync(fd, bytes, written);
  }

  /** Settles when the running compaction (if any) has ended, however it ended. */
  compactionSettled(): Promise<void> {
    return (this.compacting ?? Promise.resolve()).catch(() => {});
  }

  /** The journal segment new writes go to (tests tear and inspect it). */
  journalPath(): string {
    return this.path(segmentName(this.segment));
  }

  override async flush(): Promise<void> {
    if (this.compacting) await this.compacting;
    if (this.journal.size > 0) await this.compact();
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    try {
      // If this compaction fails (disk full), the journal still holds every acknowledged
      // write and the next start replays it; the error tells the user why.
      await this.flush();
    } finally {
      this.closeJournal();
      this.unlock();
    }
  }
}

/**
 * Encodes snapshot lines straight into one reused buffer. Building a chunk as one string
 * (`text += line`, then Buffer.from) made a rope of every line, a flat copy of it in the old
 * generation and a new buffer per chunk: hundreds of MB of garbage per compaction of a big
 * store, which the garbage collector then collected in the middle of requests.
 */
class SnapshotWriter {
  private readonly buffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);
  private used = 0;

  constructor(
    private readonly fd: number,
    private readonly writeAll: (fd: number, bytes: Buffer) => void,
  ) {}

  text(s: string): void {
    this.reserve(Buffer.byteLength(s));
    this.used += this.buffer.write(s, this.used);
  }

  /** One line: `prefix` (the collection's `{"c":…,"v":`), the record's JSON, `}\n`. */
  record(prefix: Buffer, json: string): void {
    // A UTF-8 byte per UTF-16 unit at most 3: reserve that much without measuring the string.
    const worst = prefix.length + json.length * 3 + 2;
    if (worst > WRITE_BUFFER_BYTES) {
      this.flush();
      this.writeAll(this.fd, Buffer.concat([prefix, Buffer.from(json), CLOSE_LINE]));
      return;
    }
    this.reserve(worst);
    this.used += prefix.copy(this.buffer, this.used);
    this.used += this.buffer.write(json, this.used);
    this.used += CLOSE_LINE.copy(this.buffer, this.used);
  }

  flush(): void {
    if (this.used === 0) return;
    this.writeAll(this.fd, this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes > WRITE_BUFFER_BYTES) this.flush();
    if (bytes > WRITE_BUFFER_BYTES) throw new Error('snapshot line too long for the write buffer');
  }
}
const CLOSE_LINE = Buffer.from('}\n');

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * SVC_TEST_COMPACTION_PAUSE=<step>: the compaction stops for good at that step after printing
 * `store-compaction-paused:<step>` on stderr, so a test can kill -9 the process exactly there.
 */
async function pauseForTest(step: CompactionStep): Promise<void> {
  if (process.env.SVC_TEST_COMPACTION_PAUSE !== step) return;
  process.stderr.write(`store-compaction-paused:${step}\n`);
  await new Promise<void>(() => {
    setInterval(() => {}, 1 << 30); // keeps the process alive until it is killed
  });
}


