import { SegmentedMap } from '../performance/segmented-map.js';

// The ids filed under one index key, in the order they were filed, with O(1) add and remove
// and positional reads. A plain array made removal O(n) (lastIndexOf + splice), which turns
// draining a queue-like index (pending webhook deliveries) into O(n²). Here a removed id
// leaves a hole that is skipped; holes are squeezed out when they outnumber the live ids, or
// before a positional read, so the cost stays amortized O(1) per write.
//
// The position map (id → slot, ~50 bytes an id) is built at the first removal from a list
// longer than SMALL, not before: most keys hold one id (a link code, a key hash), and the big
// lists (a merchant's payments, events, wallet entries) mostly only grow. Removing the last id
// (a rolled-back insert) needs no map; other removals from a short list scan its few slots.

const SMALL = 16;
const MIN_HOLES_TO_COMPACT = 32;

export class OrderedIds {
  private slots: Array<string | undefined> = [];
  private slotOf: SegmentedMap<string, number> | undefined;
  private holes = 0;

  get size(): number {
    return this.slots.length - this.holes;
  }

  add(id: string): void {
    this.slots.push(id);
    if (this.slotOf) this.slotOf.set(id, this.slots.length - 1);
  }

  delete(id: string): void {
    // A rolled-back insert is the last id: no position map needed to find it.
    const last = this.slots.length - 1;
    if (!this.slotOf && this.slots.length > SMALL && this.slots[last] !== id) this.indexSlots();
    const slot = this.slotOf ? this.slotOf.get(id) : this.slots[last] === id ? last : this.slots.lastIndexOf(id);
    if (slot === undefined || slot < 0) return;
    this.slotOf?.delete(id);
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
    for (const id of this.slots) if (id !== undefined) this.slots[w++] = id;
    this.slots.length = w;
    this.holes = 0;
    if (this.slotOf) this.indexSlots();
  }

  private indexSlots(): void {
    this.slotOf = new SegmentedMap();
    this.slots.forEach((id, slot) => id !== undefined && this.slotOf!.set(id, slot));
  }
}
