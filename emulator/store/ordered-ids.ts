// The ids filed under one index key, in the order they were filed, with O(1) add and remove
// and positional reads. A plain array made removal O(n) (lastIndexOf + splice), which turns
// draining a queue-like index (pending webhook deliveries) into O(n²). Here a removed id
// leaves a hole that is skipped; holes are squeezed out when they outnumber the live ids, or
// before a positional read, so the cost stays amortized O(1) per write.

const MIN_HOLES_TO_COMPACT = 32;

export class OrderedIds {
  private slots: Array<string | undefined> = [];
  private readonly slotOf = new Map<string, number>();
  private holes = 0;

  get size(): number {
    return this.slotOf.size;
  }

  add(id: string): void {
    this.slotOf.set(id, this.slots.length);
    this.slots.push(id);
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.slots[slot] = undefined;
    this.holes++;
    // A rolled-back insert is the last id: trim instead of leaving a hole.
    while (this.slots.length > 0 && this.slots[this.slots.length - 1] === undefined) {
      this.slots.pop();
      this.holes--;
    }
    if (this.holes >= MIN_HOLES_TO_COMPACT && this.holes * 2 > this.slots.length) this.compact();
  }

  /** The live ids, oldest first, without holes. The store's own array: read it, never keep or change it. */
  dense(): readonly string[] {
    if (this.holes > 0) this.compact();
    return this.slots as string[];
  }

  private compact(): void {
    let w = 0;
    for (const id of this.slots) {
      if (id === undefined) continue;
      this.slotOf.set(id, w);
      this.slots[w++] = id;
    }
    this.slots.length = w;
    this.holes = 0;
  }
}
