import type { CarriesSurvivingWrites, IndexSpec, IndexView, Store, StoredRecord, Transaction } from './store.js';
import { OrderedIds } from './ordered-ids.js';

export type Op = { c: string; id: string; v?: StoredRecord };

interface Index {
  spec: IndexSpec<StoredRecord>;
  /** key -> ids in first-write order */
  entries: Map<string, OrderedIds>;
  /** id -> key, to move a record when its key changes */
  keyOf: Map<string, string>;
}

// The in-memory half of every store: collections, secondary indexes and transactions with an
// undo log. The file-backed store extends it with the journal; unit tests can use it alone.
export class MemoryStore implements Store {
  protected collections = new Map<string, Map<string, StoredRecord>>();
  private indexes = new Map<string, Index[]>();
  private depth = 0;
  private commitListeners = new Set<(ops: readonly Op[]) => void>();
  private pendingOps: Op[] = [];
  private undo: Array<() => void> = [];

  get<T extends StoredRecord>(collection: string, id: string): T | undefined {
    return this.collections.get(collection)?.get(id) as T | undefined;
  }

  *all<T extends StoredRecord>(collection: string): IterableIterator<T> {
    const c = this.collections.get(collection);
    if (c) yield* c.values() as IterableIterator<T>;
  }

  count(collection: string): number {
    return this.collections.get(collection)?.size ?? 0;
  }

  defineIndex<T extends StoredRecord>(spec: IndexSpec<T>): void {
    const index: Index = { spec: spec as unknown as IndexSpec<StoredRecord>, entries: new Map(), keyOf: new Map() };
    const list = this.indexes.get(spec.collection) ?? [];
    list.push(index);
    this.indexes.set(spec.collection, list);
    for (const record of this.all(spec.collection)) this.fileInIndex(index, record);
  }

  byIndex<T extends StoredRecord>(collection: string, name: string, key: string): T[] {
    const ids = this.index(collection, name).entries.get(key)?.dense() ?? [];
    const c = this.collections.get(collection)!;
    return ids.map((id) => c.get(id) as T);
  }

  viewIndex<T extends StoredRecord>(collection: string, name: string, key: string): IndexView<T> {
    const ids = this.index(collection, name).entries.get(key)?.dense() ?? [];
    const c = this.collections.get(collection);
    return { length: ids.length, at: (i: number) => c!.get(ids[i]) as T };
  }

  private index(collection: string, name: string): Index {
    const index = this.indexes.get(collection)?.find((i) => i.spec.name === name);
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
    for (const [c, records] of this.collections) if (records.size > 0) out[c] = Array.from(records.values());
    return out;
  }

  /**
   * Replaces every record with `records`, as one transaction: a restore journals like any
   * write, and a disk that refuses it rolls the whole replacement back (the old world stays).
   */
  replaceAll(records: Record<string, readonly StoredRecord[]>): void {
    this.transaction((tx) => {
      for (const [c, existing] of this.collections) for (const id of Array.from(existing.keys())) tx.delete(c, id);
      for (const [c, list] of Object.entries(records)) for (const r of list) tx.put(c, r);
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
    put: <T extends StoredRecord>(collection: string, record: T): T => {
      const previous = this.get(collection, record.id);
      this.set(collection, record);
      this.undo.push(() => (previous ? this.set(collection, previous) : this.remove(collection, record.id)));
      this.pendingOps.push({ c: collection, id: record.id, v: record });
      return record;
    },
    delete: (collection: string, id: string): void => {
      const previous = this.get(collection, id);
      if (!previous) return;
      this.remove(collection, id);
      this.undo.push(() => this.set(collection, previous));
      this.pendingOps.push({ c: collection, id });
    },
  };

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
        console.error('[emulator] a commit listener failed (the write itself is kept):', err);
      }
    }
  }

  private set(collection: string, record: StoredRecord): void {
    let c = this.collections.get(collection);
    if (!c) this.collections.set(collection, (c = new Map()));
    c.set(record.id, record);
    for (const index of this.indexes.get(collection) ?? []) this.fileInIndex(index, record);
  }

  private remove(collection: string, id: string): void {
    this.collections.get(collection)?.delete(id);
    for (const index of this.indexes.get(collection) ?? []) this.unfile(index, id);
  }

  private fileInIndex(index: Index, record: StoredRecord): void {
    const key = index.spec.key(record);
    const old = index.keyOf.get(record.id);
    if (old === key) return;
    if (old !== undefined) this.unfile(index, record.id);
    if (key === undefined) return;
    let ids = index.entries.get(key);
    if (!ids) index.entries.set(key, (ids = new OrderedIds()));
    ids.add(record.id);
    index.keyOf.set(record.id, key);
  }

  private unfile(index: Index, id: string): void {
    const key = index.keyOf.get(id);
    if (key === undefined) return;
    const ids = index.entries.get(key)!;
    ids.delete(id);
    if (ids.size === 0) index.entries.delete(key);
    index.keyOf.delete(id);
  }
}
