import type { Collection } from './collection.js';
import type { Store, StoredRecord } from './store.js';

/**
 * The first record of `collection` (already there, or committed later) whose view the
 * predicate accepts. Waits on the store's commit feed, not on time: the timeout only turns a
 * hang into an error ("no <what> matched within N ms"); a predicate that throws rejects.
 * The testing API's waitForEvent/waitForDelivery and waitForRequest share it.
 */
export function waitForRecord<R extends StoredRecord, V>(store: Store, collection: Collection<R>, view: (r: R) => V, predicate: (v: V) => boolean, timeout: number, what: string): Promise<V> {
  for (const r of store.all(collection)) {
    const v = view(r);
    if (predicate(v)) return Promise.resolve(v);
  }
  return new Promise<V>((ok, fail) => {
    const timer = setTimeout(() => {
      unsubscribe();
      fail(new Error(`no ${what} matched within ${timeout} ms`));
    }, timeout);
    const unsubscribe = store.onCommit((ops) => {
      for (const op of ops) {
        if (op.c !== collection.name || !op.v) continue;
        const v = view(op.v as R);
        let matched = false;
        try {
          matched = predicate(v);
        } catch (err) {
          clearTimeout(timer);
          unsubscribe();
          return fail(err);
        }
        if (matched) {
          clearTimeout(timer);
          unsubscribe();
          return ok(v);
        }
      }
    });
  });
}
