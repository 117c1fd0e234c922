// A Map for the store's big tables (records by id, index bookkeeping) that never rehashes
// more than SEGMENT entries at once.
//
// A JavaScript Map grows by doubling: the set() that fills it copies and rehashes every entry
// into a table twice the size, synchronously. At 131,072 entries that one set() took ~30 ms,
// at 262,144 up to ~260 ms (measured, node 20), and the store has several maps of the same
// size (a collection, its indexes' id→key maps), which all fill on the same write. That was
// the longest event-loop stall of a 100k-payment emulator, whichever request happened to
// cross the power of two. Here new keys go to the newest of a list of maps, and a new map is
// started once the newest holds SEGMENT keys; a rehash copies at most SEGMENT entries.
//
// Iteration order is a Map's: insertion order (segments in order, each in its own order; a
// set() of an existing key keeps its place). A lookup tries the newest segment first, so one
// costs at most size / SEGMENT map lookups (10 at 300k records). Values must not be
// undefined (get() returns undefined for a missing key only).

const SEGMENT = 1 << 15;

export class SegmentedMap<K, V> {
  private segments: Array<Map<K, V>> = [new Map()];
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    const segments = this.segments;
    for (let i = segments.length - 1; i >= 0; i--) {
      const v = segments[i].get(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.segments.some((s) => s.has(key));
  }

  set(key: K, value: V): this {
    this.swap(key, value);
    return this;
  }

  /** set(), returning the value it replaced (one search of the segments instead of get + set). */
  swap(key: K, value: V): V | undefined {
    const segments = this.segments;
    for (let i = segments.length - 1; i >= 0; i--) {
      const previous = segments[i].get(key);
      if (previous !== undefined) {
        segments[i].set(key, value);
        return previous;
      }
    }
    let newest = segments[segments.length - 1];
    if (newest.size >= SEGMENT) segments.push((newest = new Map()));
    newest.set(key, value);
    this.count++;
    return undefined;
  }

  /** Removes `key`; returns the value it held (one search, as swap: a caller need not get() first). */
  delete(key: K): V | undefined {
    const segments = this.segments;
    for (let i = segments.length - 1; i >= 0; i--) {
      const holder = segments[i];
      const previous = holder.get(key);
      if (previous === undefined) continue;
      holder.delete(key);
      this.count--;
      // An emptied segment other than the newest goes (a drained queue leaves no trail of maps),
      // in a new list: an iteration under way (compaction walks across turns) keeps the old one.
      if (holder.size === 0 && i !== segments.length - 1) this.segments = segments.filter((s) => s !== holder);
      return previous;
    }
    return undefined;
  }

  *keys(): IterableIterator<K> {
    for (const s of this.segments) yield* s.keys();
  }

  *values(): IterableIterator<V> {
    for (const s of this.segments) yield* s.values();
  }

  *entries(): IterableIterator<[K, V]> {
    for (const s of this.segments) yield* s.entries();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  /** The values in order, as one array (MemoryStore.dump). */
  valuesArray(): V[] {
    const out = new Array<V>(this.count);
    let i = 0;
    for (const s of this.segments) for (const v of s.values()) out[i++] = v;
    return out;
  }
}
