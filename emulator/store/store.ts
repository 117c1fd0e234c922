// The store interface every domain module writes through. Records live in named collections
// keyed by id. Writes happen inside a transaction: they are visible at once to the code that
// made them, and reach disk as one journal line at commit, so a crash keeps all of a
// transaction or none of it.

import type { AnyCollection, Collection } from './collection.js';

export type StoredRecord = { id: string } & Record<string, unknown>;

export interface Transaction {
  put<T extends StoredRecord>(collection: Collection<T>, record: NoInfer<T>): T;
  delete(collection: AnyCollection, id: string): void;
  /** What the (outermost) transaction has written so far, and will have at its commit (the request log's `resources`). */
  writes(): readonly { c: string; id: string; v?: StoredRecord }[];
}

/**
 * An error thrown out of a transaction may carry writes that must stand although the rest is
 * undone (a counted wrong PIN or OTP attempt). The outermost transaction commits them in a
 * transaction of their own after the rollback, then rethrows.
 */
export interface CarriesSurvivingWrites {
  survivingWrites?: (tx: Transaction) => void;
}

/** Positional, read-only access to the records under one index key, oldest first. */
export interface IndexView<T> {
  readonly length: number;
  at(i: number): T;
}

// The contract is synchronous: a read returns the record, a transaction runs to its end and
// its commit is durable before transaction() returns, all within one turn of the event loop.
// Domain code relies on it (read, decide and write with nothing in between), which is why an
// embedded store (memory + journal here; SQLite would fit) can sit behind this interface and
// a network database, whose every call is a round trip, could not.
export interface Store {
  get<T extends StoredRecord>(collection: Collection<T>, id: string): T | undefined;
  all<T extends StoredRecord>(collection: Collection<T>): IterableIterator<T>;
  count(collection: AnyCollection): number;
  /** Files the collection's declared indexes (once, at start, before any record is loaded or seeded). */
  define(collection: AnyCollection): void;
  /** Records filed under `key` of one of the collection's indexes, oldest first (insertion order). */
  byIndex<T extends StoredRecord, I extends string>(collection: Collection<T, I>, index: NoInfer<I>, key: string): T[];
  /**
   * The same records as `byIndex`, without copying them into an array: for paging and
   * roll-ups over big keys (100k payments of one merchant). Valid until the next write.
   */
  viewIndex<T extends StoredRecord, I extends string>(collection: Collection<T, I>, index: NoInfer<I>, key: string): IndexView<T>;
  /** Runs `fn` in a transaction and commits it; if `fn` throws, its writes are undone. */
  transaction<R>(fn: (tx: Transaction) => R): R;
  /** Every record, by collection (snapshots; world.ts). */
  dump(): Record<string, StoredRecord[]>;
  /** Replaces every record in one transaction (restore and reset; world.ts). */
  replaceAll(records: Record<string, readonly StoredRecord[]>): void;
  onCommit(listener: (ops: readonly { c: string; id: string; v?: StoredRecord }[]) => void): () => void;
  /** Writes a compact snapshot and empties the journal. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
