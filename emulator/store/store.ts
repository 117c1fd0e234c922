// The store interface every domain module writes through. Records live in named collections
// keyed by id. Writes happen inside a transaction: they are visible at once to the code that
// made them, and reach disk as one journal line at commit, so a crash keeps all of a
// transaction or none of it.

export type StoredRecord = { id: string } & Record<string, unknown>;

export interface Transaction {
  put<T extends StoredRecord>(collection: string, record: T): T;
  delete(collection: string, id: string): void;
}

/**
 * An error thrown out of a transaction may carry writes that must stand although the rest is
 * undone (a counted wrong PIN or OTP attempt). The outermost transaction commits them in a
 * transaction of their own after the rollback, then rethrows.
 */
export interface CarriesSurvivingWrites {
  survivingWrites?: (tx: Transaction) => void;
}

export interface IndexSpec<T> {
  collection: string;
  name: string;
  /** The key the record is filed under; undefined leaves it out of the index. */
  key: (record: T) => string | undefined;
}

/** Positional, read-only access to the records under one index key, oldest first. */
export interface IndexView<T> {
  readonly length: number;
  at(i: number): T;
}

export interface Store {
  get<T extends StoredRecord>(collection: string, id: string): T | undefined;
  all<T extends StoredRecord>(collection: string): IterableIterator<T>;
  count(collection: string): number;
  /** Declares a secondary index; records are listed in the order they were first written. */
  defineIndex<T extends StoredRecord>(spec: IndexSpec<T>): void;
  /** Records filed under `key`, oldest first (insertion order). */
  byIndex<T extends StoredRecord>(collection: string, index: string, key: string): T[];
  /**
   * The same records as `byIndex`, without copying them into an array: for paging and
   * roll-ups over big keys (100k payments of one merchant). Valid until the next write.
   */
  viewIndex<T extends StoredRecord>(collection: string, index: string, key: string): IndexView<T>;
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
