// A binary min-heap ordered by due time, then by insertion (equal times run in the order they
// were scheduled). Entries are never removed from the middle: the scheduler drops an entry by
// forgetting it (it is then stale and skipped when it reaches the top).

export interface HeapEntry {
  due: number;
  seq: number;
}

const before = (a: HeapEntry, b: HeapEntry) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

export class MinHeap<E extends HeapEntry> {
  private items: E[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): E | undefined {
    return this.items[0];
  }

  push(e: E): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }

  pop(): E | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l], a[m])) m = l;
        if (r < a.length && before(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }

  /** Keeps only the entries `keep` accepts (the scheduler's compaction of stale entries). */
  rebuild(keep: (e: E) => boolean): void {
    const live = this.items.filter(keep);
    this.items = [];
    for (const e of live.sort((x, y) => (before(x, y) ? -1 : 1))) this.items.push(e); // a sorted array is a heap
  }

  clear(): void {
    this.items = [];
  }
}
