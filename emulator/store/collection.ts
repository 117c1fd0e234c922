import type { z } from 'zod';
import type { StoredRecord } from './store.js';
import type { CollectionName, RECORD_SCHEMAS } from '../../contract/records/index.js';

// A collection of the store, declared once with its record type and its secondary indexes.
// Domain code reads and writes through these handles (store.get(PAYMENTS, id),
// store.byIndex(PAYMENTS, 'by_scope', key)), so a wrong collection, a wrong record type or an
// index the collection does not have is a compile error instead of a string that fails at run
// time. The store files each collection's indexes when the emulator starts (store.define).

/** Files a record under one key of an index; undefined leaves it out. */
export type IndexKey<T> = (record: T) => string | undefined;

export interface Collection<T extends StoredRecord, I extends string = string> {
  /** The collection's name on disk (journal ops, snapshots). */
  readonly name: string;
  readonly indexes: { readonly [K in I]: IndexKey<T> };
  /** Type only: the record type (never set). */
  readonly record?: T;
}

/** Any collection, whatever its record type (world snapshots, definitions). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCollection = Collection<any, any>;

/**
 * `collection<PaymentRecord>()('payments', { by_scope: (p) => … })`: the record type is given,
 * the index names are inferred from the object (two steps, since TypeScript cannot infer one
 * type argument and take the other).
 */
export const collection =
  <T extends StoredRecord>() =>
  <I extends string = never>(name: string, indexes: { readonly [K in I]: IndexKey<T> } = {} as { [K in I]: IndexKey<T> }): Collection<T, I> => ({ name, indexes });

/**
 * The record type of one of the emulator's collections: the output of its schema in
 * contract/records/ (what a restored world is checked against), so each shape is written once;
 * fields a newer version wrote are kept as they are (StoredRecord).
 */
export type RecordOf<N extends CollectionName> = z.output<(typeof RECORD_SCHEMAS)[N]> & StoredRecord;

/** `storedCollection('payments', { by_scope: (p) => … })`: an emulator collection, its record type read from its name. */
export const storedCollection = <N extends CollectionName, I extends string = never>(name: N, indexes?: { readonly [K in I]: IndexKey<RecordOf<N>> }): Collection<RecordOf<N>, I> =>
  collection<RecordOf<N>>()(name, indexes);
