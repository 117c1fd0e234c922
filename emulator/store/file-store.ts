import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { MemoryStore, type Op } from './memory-store.js';
import { lockDataDir } from './dir-lock.js';
import type { StoredRecord } from './store.js';

// A JSON-file store that never rewrites the whole file per write.
//
//   store.json      a snapshot, written by lowdb (temp file + rename, so it is never torn)
//   journal.ndjson  one line per committed transaction, appended with a single write()
//
// A write costs one append whatever the store's size. The bytes are in the kernel before the
// request is answered, so a SIGKILL at any moment keeps every acknowledged write; a line torn
// by the kill is the last one and is dropped at load (it was never acknowledged). Loading
// replays the journal over the snapshot, then compacts: new snapshot first, journal emptied
// second, so a crash between the two only replays idempotent puts again.
//
// The snapshot is rewritten only when the journal holds something: a store that was closed
// cleanly opens without rewriting it, and a close with no write since the last snapshot
// writes nothing (at 100k payments a snapshot is ~50 MB of JSON.stringify).

export interface Snapshot {
  version: 1;
  collections: Record<string, Record<string, StoredRecord>>;
}

export interface FileStoreOptions {
  /** fsync the journal on every commit (survives power loss, not just process death). */
  fsync?: boolean;
}

export class FileStore extends MemoryStore {
  private journalFd = -1;
  private readonly snapshotDb: Low<Snapshot>;
  private readonly journalPath: string;
  /** The snapshot on disk holds everything in memory and the journal is empty. */
  private clean = false;
  /** Transactions journaled so far; tells flush() whether one landed while it was writing. */
  private commits = 0;

  private constructor(
    readonly dir: string,
    private readonly options: FileStoreOptions,
  ) {
    super();
    this.snapshotDb = new Low<Snapshot>(new JSONFile<Snapshot>(join(dir, 'store.json')), { version: 1, collections: {} });
    this.journalPath = join(dir, 'journal.ndjson');
  }

  static async open(dir: string, options: FileStoreOptions = {}): Promise<FileStore> {
    mkdirSync(dir, { recursive: true });
    const unlock = lockDataDir(dir);
    const store = new FileStore(dir, options);
    store.unlock = unlock;
    try {
      await store.load();
    } catch (err) {
      unlock();
      throw err;
    }
    return store;
  }

  /** Releases the data dir's lock (see dir-lock.ts). */
  private unlock: () => void = () => {};

  private async load(): Promise<void> {
    const hasSnapshot = existsSync(join(this.dir, 'store.json'));
    await this.snapshotDb.read();
    let replayed = 0;
    for (const [collection, records] of Object.entries(this.snapshotDb.data.collections)) {
      for (const record of Object.values(records)) this.apply({ c: collection, id: record.id, v: record });
    }
    if (existsSync(this.journalPath)) {
      const lines = readFileSync(this.journalPath, 'utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (line === '') continue;
        let ops: Op[];
        try {
          ops = JSON.parse(line) as Op[];
        } catch {
          // Only the final line can be torn (a kill mid-append); anything else is damage we
          // must not silently skip past.
          if (lines.slice(i + 1).some((l) => l !== '')) throw new Error(`journal ${this.journalPath} is damaged at line ${i + 1}`);
          break;
        }
        for (const op of ops) this.apply(op);
        replayed++;
      }
    }
    // The parsed snapshot now lives in the collections; do not keep a second tree of it.
    this.snapshotDb.data = { version: 1, collections: {} };
    this.clean = hasSnapshot && replayed === 0;
    await this.flush();
  }

  /** The snapshot as it stands in memory; also what `flush()` writes. */
  private snapshot(): Snapshot {
    const collections: Snapshot['collections'] = {};
    for (const [name, records] of this.collections) collections[name] = Object.fromEntries(records);
    return { version: 1, collections };
  }

  override async flush(): Promise<void> {
    if (this.clean && this.journalFd >= 0) return;
    if (!this.clean) {
      const before = this.commits;
      this.snapshotDb.data = this.snapshot();
      await this.snapshotDb.write();
      this.snapshotDb.data = { version: 1, collections: {} };
      // A transaction journaled during the write is not in this snapshot: keep the journal
      // (replaying it over the new snapshot is harmless, its ops are whole-record puts).
      if (this.commits !== before && this.journalFd >= 0) return;
      this.clean = true;
    }
    if (this.journalFd >= 0) closeSync(this.journalFd);
    this.journalFd = openSync(this.journalPath, 'w'); // 'w' empties it; O_APPEND is not needed with one writer

  }

  override async close(): Promise<void> {
    await this.flush();
    closeSync(this.journalFd);
    this.journalFd = -1;
    this.unlock();
  }

  protected override persist(ops: Op[]): void {
    if (this.journalFd < 0) throw new Error('store is closed');
    this.clean = false;
    this.commits++;
    // Written as a string (no Buffer copy per commit); a short write, which a regular file
    // does not do in practice, falls back to finishing from a Buffer.
    const line = JSON.stringify(ops) + '\n';
    let written = writeSync(this.journalFd, line);
    if (written < Buffer.byteLength(line)) {
      const bytes = Buffer.from(line);
      while (written < bytes.length) written += writeSync(this.journalFd, bytes, written);
    }
    if (this.options.fsync) fsyncSync(this.journalFd);
  }
}
