import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { Appender } from '../store/appender.js';
import { storeFsFromEnv, type StoreFs } from '../store/store-fs.js';
import { describeFsCode } from '../store/store-write-error.js';
import type { Logger } from '../services.js';

// The request log on disk, beside the store and never inside it: the entries are diagnostics,
// not acknowledged writes, so they do not pay for a journal line each and can never damage it.
//
//   <data dir>/request-log/requests-<world>-<k>.log   entries, as log.ts keeps them, and now and
//                                                      then which have left since (entry-text.ts)
//
// log.ts writes its entries in batches (every 250 ms, or once 256 wait) and whole at a snapshot,
// `POST /_emulator/store/compact` and a graceful stop. A kill -9 loses at most the batch that was
// waiting — the newest entries: the files always hold a prefix of the log — and a torn last
// entry is cut off at the next start.
//
// Segments bound the files without ever rewriting one: once a segment passes `segmentBytes` the
// next begins, and a segment whose newest entry has left the log (--request-log N,
// --retain-days) is deleted. `<world>` changes when the world is replaced (reset, restore): the
// new world's first segment is written before the old world's files are deleted, and a start
// reads only the highest world, so a crash in between never brings a reset log back.

const FILE = /^requests-(\d+)-(\d+)\.log$/;
const fileName = (world: number, k: number) => `requests-${world}-${k}.log`;

export interface LogFileOptions {
  /** The filesystem seam (tests inject failures through it, as for the store). */
  fs?: StoreFs;
  /** fsync at close (--fsync). Batches are not fsynced: a power loss costs the last ones. */
  fsync?: boolean;
  /** A segment this big is full. */
  segmentBytes: number;
  log: Logger;
}

interface Segment {
  k: number;
  /** Micro-stamp of its newest entry (-Infinity: none yet). */
  newest: number;
}

export class LogFile {
  /** After a refused write, the next try (new entries keep waiting in memory meanwhile). */
  static readonly RETRY_MS = 1_000;

  private world = 0;
  /** The current world's segments, oldest first; new entries go to the last one. */
  private segments: Segment[] = [{ k: 0, newest: -Infinity }];
  private readonly out: Appender;
  /** Why the last write failed, until one succeeds (GET /_emulator/metrics shows it). */
  failure: string | null = null;

  private constructor(
    readonly dir: string,
    private readonly options: LogFileOptions,
  ) {
    this.out = new Appender(options.fs ?? storeFsFromEnv());
  }

  /**
   * Reads the newest world's files, oldest first: `take` gets each file's bytes and answers
   * where a torn last entry starts (the file's length when it ends whole; that tail is cut off)
   * and the stamp of the file's newest entry. Files of older worlds are deleted.
   */
  static load(dir: string, options: LogFileOptions, take: (bytes: Buffer) => { whole: number; newest: number }): LogFile {
    const file = new LogFile(dir, options);
    if (!existsSync(dir)) return file;
    const found = readdirSync(dir)
      .map((name) => ({ name, m: FILE.exec(name) }))
      .filter((f) => f.m !== null)
      .map((f) => ({ name: f.name, world: Number(f.m![1]), k: Number(f.m![2]) }));
    if (found.length === 0) return file;
    file.world = Math.max(...found.map((f) => f.world));
    for (const f of found) if (f.world !== file.world) file.remove(f.name);
    const mine = found.filter((f) => f.world === file.world).sort((a, b) => a.k - b.k);
    file.segments = mine.map((f) => ({ k: f.k, newest: -Infinity }));
    mine.forEach((f, i) => {
      const path = join(dir, f.name);
      const bytes = readFileSync(path);
      const { whole, newest } = take(bytes);
      file.segments[i].newest = newest;
      if (whole < bytes.length) {
        try {
          truncateSync(path, whole);
        } catch {
          // Read-only: the torn tail stays, and is skipped again at the next start.
        }
      }
    });
    return file;
  }

  /**
   * Appends `parts` (whole entries, the newest stamped `newest`, -Infinity for none; and lines
   * about dropped ones) to the current segment; false when the disk refused (nothing of them
   * stays in the file; it is reported once per failure). Then deletes the segments older than
   * `oldest`, the oldest entry the log still holds.
   */
  write(parts: Buffer[], newest: number, oldest: number): boolean {
    const last = this.segments[this.segments.length - 1];
    try {
      if (!this.out.isOpen) {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 }); // private, like the data dir
        this.out.open(join(this.dir, fileName(this.world, last.k)));
      }
      if (parts.length > 0) this.out.append(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    } catch (err) {
      if (this.failure === null) {
        this.options.log.warn(
          `request log: entries could not be written to ${this.dir} (${describe(err)}); they stay in memory and are written once the disk takes them again (a kill -9 meanwhile loses them; the store is not affected)`,
        );
      }
      this.failure = describe(err);
      return false;
    }
    if (this.failure !== null) {
      this.options.log.info(`request log: written to ${this.dir} again`);
      this.failure = null;
    }
    last.newest = Math.max(last.newest, newest);
    if (this.out.size >= this.options.segmentBytes) {
      // The next write opens the next segment.
      this.out.close();
      this.segments.push({ k: last.k + 1, newest: -Infinity });
    }
    this.forget(oldest);
    return true;
  }

  /**
   * The world was replaced: `parts` (its entries, the newest stamped `newest`) are the whole log
   * from now on. They go to the first segment of a new world, then the old world's files go.
   */
  startWorld(parts: Buffer[], newest: number): boolean {
    this.out.close();
    this.world++;
    this.segments = [{ k: 0, newest: -Infinity }];
    // Written even when empty: the new world's file is what makes the old one's files dead.
    // If the disk refuses it, the old world's files go anyway (a start then finds no log,
    // rather than the old one); the entries wait in memory for the next write.
    const written = this.write(parts, newest, -Infinity);
    try {
      if (existsSync(this.dir)) for (const name of readdirSync(this.dir)) if (FILE.test(name) && Number(FILE.exec(name)![1]) !== this.world) this.remove(name);
    } catch (err) {
      this.options.log.warn(`request log: could not list ${this.dir} to delete the old world's files (${describe(err)})`);
    }
    return written;
  }

  /** Deletes the segments whose entries have all left the log (never the one being written). */
  forget(oldest: number): void {
    while (this.segments.length > 1 && this.segments[0].newest < oldest) {
      this.remove(fileName(this.world, this.segments[0].k));
      this.segments.shift();
    }
  }

  /** fsyncs (with --fsync) and closes the file; log.ts has written what waited. */
  close(): void {
    try {
      if (this.options.fsync) this.out.fsync();
    } catch (err) {
      this.options.log.warn(`request log: fsync at stop failed (${describe(err)})`);
    }
    this.out.close();
  }

  private remove(name: string): void {
    try {
      rmSync(join(this.dir, name), { force: true });
    } catch (err) {
      this.options.log.warn(`request log: could not delete ${join(this.dir, name)} (${describe(err)})`);
    }
  }
}

const describe = (err: unknown) => describeFsCode((err as NodeJS.ErrnoException | null)?.code, (err as Error)?.message);
