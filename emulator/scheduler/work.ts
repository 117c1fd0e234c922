import type { Services } from '../services.js';
import type { StoredRecord } from '../store/store.js';
import type { AnyCollection, Collection } from '../store/collection.js';

// What a module declares to have work done at a time on the emulator clock (registry.ts,
// `timed`). The due time is always read from stored records, never kept anywhere else, so the
// scheduler finds every due item again after a restart, a reset or a restore without any
// module's help: nothing is "armed", nothing needs resuming.
//
// Two shapes:
//   per record  one item per record that has work waiting, due at a time the record says
//               (a delivery's next_attempt_at, a payout's resolves_at_ms, a pending MoMo
//               payment's created_at + the clearing delay)
//   sweep       one item for a whole kind of housekeeping, due when the first of its records
//               is (retention: the oldest idempotency record's 24 h, the oldest event's
//               --retain-days); cheaper than one item per record for collections of 100k

/** What a run may answer: nothing (done), a promise (async work an advance waits for), or a later time to try again. */
type RunResult = void | Promise<void> | { retryAt: number };

export interface RecordWork<T extends StoredRecord = StoredRecord> {
  shape: 'record';
  /** Names the work in logs. */
  name: string;
  collection: Collection<T>;
  /**
   * An index key under which every record with work waiting is filed: read at start instead of
   * every record of the collection (deliveries: `scheduled`). Without it the collection is read whole.
   */
  waiting?: { index: string; key: string };
  /** When the record's work is due (emulator ms), or undefined when it has none. Runs on every write to the collection: keep it cheap. */
  dueAt(record: T, services: Services): number | undefined;
  /**
   * Does the work, with the clock at the due time (or later, when the emulator was down then).
   * A returned promise is awaited by a clock advance before any later item runs (a webhook
   * attempt on the wire); `{ retryAt }` runs it again then (a provider outage holds it).
   */
  run(services: Services, record: T): RunResult;
}

export interface SweepWork {
  shape: 'sweep';
  name: string;
  /** Collections whose writes may bring the sweep's next due time forward. */
  collections: AnyCollection[];
  /** The time a written record will need the sweep (cheap: it runs on every write to `collections`), or undefined. */
  dueOf(collection: string, record: StoredRecord, services: Services): number | undefined;
  /** The next time the sweep has work, read from the records (after each run, at start, after a world is replaced). */
  nextDue(services: Services): number | undefined;
  /** Does the work due at the clock's time (synchronous: one transaction). */
  run(services: Services): void;
}

export type TimedWork = RecordWork<any> | SweepWork; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Declares per-record work with its record type checked (`collection` decides `T`). */
export const recordWork = <T extends StoredRecord>(work: Omit<RecordWork<T>, 'shape'>): RecordWork<T> => ({ shape: 'record', ...work });
export const sweepWork = (work: Omit<SweepWork, 'shape'>): SweepWork => ({ shape: 'sweep', ...work });
