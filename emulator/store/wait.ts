import type { Collection } from './collection.js';
import type { Store, StoredRecord } from './store.js';

/**
 * The first value (already there, or fed later) the predicate accepts: `existing` is checked
 * first, then every value `subscribe` feeds. Waits on the feed, not on time: the timeout only
 * turns a hang into an error ("no <what> matched within N ms"); a predicate that throws rejects.
 */
export function waitForValue<V>(existing: Iterable<V>, subscribe: (feed: (v: V) => void) => () => void, predicate: (v: V) => boolean, timeout: number, what: string): Promise<V> {
  for (const v of existing) if (predicate(v)) return Promise.resolve(v);
  return new Promise<V>((ok, fail) => {
    let settled = false;
    const settle = (end: () => void) => {
      settled = true;
      clearTimeout(timer);
      unsubscribe();
      end();
    };
    const timer = setTimeout(() => settle(() => fail(new Error(`no ${what} matched within ${timeout} ms`))), timeout);
    const unsubscribe = subscribe((v) => {
      if (settled) return;
      let matched = false;
      try {
        matched = predicate(v);
      } catch (err) {
        return settle(() => fail(err));
      }
      if (matched) settle(() => ok(v));
    });
  });
}

/**
 * The first record of `collection` (already there, or committed later) whose view the
 * predicate accepts, on the store's commit feed. The testing API's waitForEvent/waitForDelivery
 * use it (waitForRequest waits the same way on the request log's feed).
 */
export function waitForRecord<R extends StoredRecord, V>(store: Store, collection: Collection<R>, view: (r: R) => V, predicate: (v: V) => boolean, timeout: number, what: string): Promise<V> {
  const existing = function* () {
    for (const r of store.all(collection)) yield view(r);
  };
  return waitForValue(existing(), (feed) => store.onCommit((ops) => {
    for (const op of ops) if (op.c === collection.name && op.v) feed(view(op.v as R));
  }), predicate, timeout, what);
}
