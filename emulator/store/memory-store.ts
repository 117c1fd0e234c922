import type { CarriesSurvivingWrites, IndexView, Store, StoredRecord, Transaction } from './store.js';
import type { AnyCollection, Collection, IndexKey } from './collection.js';
import { OrderedIds } from './ordered-ids.js';
import { SegmentedMap } from '../performance/segmented-map.js';
import { clean } from '../../contract/redact.js';
import { inspect } from 'node:util';

export type Op = { c: string; id: string; v?: StoredRecord };

interface Index {
  name: string;
  key: IndexKey<StoredRecord>;
  /** key -> ids in first-write order */
  entries: SegmentedMap<string, OrderedIds>;
}

// The in-memory half of every store: collections, secondary indexes and transactions with an
// undo log. The file-backed store extends it with the journal; unit tests can use it alone.
export class MemoryStore implements Store {
  /** Records by collection, by id (segmented: no big synchronous rehash, see segmented-map.ts). */
  protected collections = new Map<string, SegmentedMap<string, StoredRecord>>();
  private indexes = new Map<string, Index[]>();
  private depth = 0;
  private commitListeners = new Set<(ops: readonly Op[]) => void>();
  private pendingOps: Op[] = [];
  private undo: Array<() => void> = [];

  get<T extends StoredRecord>(collection: Collection<T>, id: string): T | undefined {
    return this.collections.get(collection.name)?.get(id) as T | undefined;
  }

  all<T extends StoredRecord>(collection: Collection<T>): IterableIterator<T> {
    return this.records(collection.name) as IterableIterator<T>;
  }

  count(collection: AnyCollection): number {
    return this.collections.get(collection.name)?.size ?? 0;
  }

  define(collection: AnyCollection): void {
    if (this.indexes.has(collection.name)) throw new Error(`collection ${collection.name} is defined twice`);
    const list: Index[] = Object.entries(collection.indexes as Record<string, IndexKey<StoredRecord>>).map(([name, key]) => ({ name, key, entries: new SegmentedMap() }));
    this.indexes.set(collection.name, list);
    for (const index of list) for (const record of this.records(collection.name)) this.refile(index, record.id, undefined, record);
  }

  byIndex<T extends StoredRecord, I extends string>(collection: Collection<T, I>, name: NoInfer<I>, key: string): T[] {
    const ids = this.index(collection.name, name).entries.get(key)?.dense() ?? [];
    const c = this.collections.get(collection.name)!;
    return ids.map((id) => c.get(id) as T);
  }

  viewIndex<T extends StoredRecord, I extends string>(collection: Collection<T, I>, name: NoInfer<I>, key: string): IndexView<T> {
    const ids = this.index(collection.name, name).entries.get(key)?.dense() ?? [];
    const c = this.collections.get(collection.name);
    return { length: ids.length, at: (i: number) => c!.get(ids[i]) as T };
  }

  private *records(name: string): IterableIterator<StoredRecord> {
    const c = this.collections.get(name);
    if (c) yield* c.values();
  }

  private index(collection: string, name: string): Index {
    const index = this.indexes.get(collection)?.find((i) => i.name === name);
    if (!index) throw new Error(`no index ${collection}.${name}`);
    return index;
  }

  transaction<R>(fn: (tx: Transaction) => R): R {
    // Nested calls join the outer transaction: a domain function that writes can be called
    // alone or from a bigger operation, and the bigger one still commits once.
    this.depth++;
    const undoMark = this.undo.length;
    const opsMark = this.pendingOps.length;
    let result: R;
    try {
      result = fn(this.tx);
      if (result instanceof Promise) throw new Error('store transactions must be synchronous');
    } catch (err) {
      this.depth--;
      while (this.undo.length > undoMark) this.undo.pop()!();
      this.pendingOps.length = opsMark;
      const survivor = err as CarriesSurvivingWrites | null;
      if (this.depth === 0 && typeof survivor?.survivingWrites === 'function') {
        const writes = survivor.survivingWrites;
        survivor.survivingWrites = undefined;
        this.transaction(writes);
      }
      throw err;
    }
    // The commit stays outside the try above: a commit the disk refuses has already undone
    // itself, and must not run the rollback (and the depth decrement) a second time — that
    // left depth at -1 once, after which no transaction ever reached the journal again.
    this.depth--;
    if (this.depth === 0) this.commit();
    return result;
  }

  /** Every record of every collection, by collection name (a snapshot of the world; world.ts). */
  dump(): Record<string, StoredRecord[]> {
    const out: Record<string, StoredRecord[]> = {};
    for (const [c, records] of this.collections) if (records.size > 0) out[c] = records.valuesArray();
    return out;
  }

  /**
   * Replaces every record with `records`, as one transaction: a restore journals like any
   * write, and a disk that refuses it rolls the whole replacement back (the old world stays).
   */
  replaceAll(records: Record<string, readonly StoredRecord[]>): void {
    this.transaction(() => {
      for (const [c, existing] of this.collections) for (const id of Array.from(existing.keys())) this.deleteOp(c, id);
      for (const [c, list] of Object.entries(records)) for (const r of list) this.putOp(c, r);
    });
  }

  /** Called with the ops of every committed transaction (the webhook engine schedules from it). */
  onCommit(listener: (ops: readonly Op[]) => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  async flush(): Promise<void> {}
  async close(): Promise<void> {}

  /** Persists the ops of one committed transaction; the file store writes them to its journal. */
  protected persist(_ops: Op[]): void {}

  /** Applies an op without journaling it (loading a snapshot or replaying the journal). */
  protected apply(op: Op): void {
    if (op.v) this.set(op.c, op.v);
    else this.remove(op.c, op.id);
  }

  private readonly tx: Transaction = {
    put: <T extends StoredRecord>(collection: Collection<T>, record: T): T => this.putOp(collection.name, record),
    delete: (collection: AnyCollection, id: string): void => this.deleteOp(collection.name, id),
    writes: (): readonly Op[] => this.pendingOps,
  };

  /** A write inside the open transaction, by collection name (typed access goes through `tx`). */
  private putOp<T extends StoredRecord>(collection: string, record: T): T {
    const previous = this.set(collection, record);
    this.undo.push(() => (previous ? this.set(collection, previous) : this.remove(collection, record.id)));
    this.pendingOps.push({ c: collection, id: record.id, v: record });
    return record;
  }

  private deleteOp(collection: string, id: string): void {
    const previous = this.collections.get(collection)?.get(id);
    if (!previous) return;
    this.remove(collection, id);
    this.undo.push(() => this.set(collection, previous));
    this.pendingOps.push({ c: collection, id });
  }

  private commit(): void {
    const ops = this.pendingOps;
    try {
      if (ops.length > 0) this.persist(ops);
    } catch (err) {
      // The disk refused the write: memory must not keep what the journal does not have.
      while (this.undo.length > 0) this.undo.pop()!();
      throw err;
    } finally {
      this.pendingOps = [];
      this.undo = [];
    }
    // The write is durable: a listener (live stream, delivery engine) that throws must not
    // turn it into an error for the caller, nor keep the other listeners from hearing of it.
    for (const listener of this.commitListeners) {
      try {
        listener(ops);
      } catch (err) {
        // Redacted by pattern as every line the emulator writes: a listener's error may quote the record.
        process.stderr.write(`[emulator] a commit listener failed (the write itself is kept): ${clean(inspect(err))}\n`);
      }
    }
  }

  /** Stores `record`; returns the version it replaced (one lookup: a miss costs a look in every segment). */
  private set(collection: string, record: StoredRecord): StoredRecord | undefined {
    let c = this.collections.get(collection);
    if (!c) this.collections.set(collection, (c = new SegmentedMap()));
    const previous = c.swap(record.id, record);
    for (const index of this.indexes.get(collection) ?? []) this.refile(index, record.id, previous, record);
    return previous;
  }

  private remove(collection: string, id: string): void {
    const previous = this.collections.get(collection)?.delete(id);
    if (!previous) return;
    for (const index of this.indexes.get(collection) ?? []) this.refile(index, id, previous, undefined);
  }

  /**
   * Moves record `id` from the key its previous version was filed under to the key of its new
   * version (undefined: not filed). A record's key is a function of the record, and records are
   * never edited in place (a put stores a new object), so the old key is computed from the old
   * version instead of being kept per record (an id→key map cost ~90 bytes per indexed record).
   */
  private refile(index: Index, id: string, previous: StoredRecord | undefined, record: StoredRecord | undefined): void {
    const old = previous ? index.key(previous) : undefined;
    const key = record ? index.key(record) : undefined;
    if (old === key) return;
    if (old !== undefined) {
      const ids = index.entries.get(old);
      if (ids) {
        ids.delete(id);
        if (ids.size === 0) index.entries.delete(old);
      }
    }
    if (key === undefined) return;
    let ids = index.entries.get(key);
    if (!ids) index.entries.set(key, (ids = new OrderedIds()));
    ids.add(id);
  }
}
