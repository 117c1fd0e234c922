import { type FixtureFile } from '../contract/fixtures.js';
import { SNAPSHOT_FORMAT, snapshotProblem, WorldSnapshot } from '../contract/control/world.js';
import type { Services } from './services.js';
import type { StoredRecord } from './store/store.js';
import { resources } from './registry.js';
import { seed } from './fixtures.js';
import { formatMicros } from './ids.js';
import { ApiError } from './errors.js';
import { CLOCK_STATE, clockRecord, putClock, storedClock } from './scheduler/clock-record.js';
import { refuseBadWorld } from './world-records.js';
import { REQUEST_LOG, type RequestLogRecord } from './request-log/records.js';

// The whole world of one emulator — every record of every collection — as a value: taken
// (snapshot), put back (restore) and put back to the fixtures (reset), so a test can give
// every case a fresh world without a new process, the way Miniflare or firebase emulators do.
//
// Replacing the world is one store transaction (journaled like any write; a disk that refuses
// it leaves the old world whole). The request log is part of the world but lives beside the
// store (request-log/log.ts): a snapshot carries it as its `request_log` collection, and it is
// replaced once the store's transaction has committed. The scheduler forgets the old records' due work (webhook
// retries, payout answers, MoMo clearing, retention) and reads the new records' after, as at a
// start; background work (the delivery engine, the live stream) stops and starts around it.
//
// The clock never goes back. A snapshot carries the clock's position (the `emulator_clock`
// collection): restoring one taken later than now (an export from a longer run) moves the clock
// forward to it, one taken earlier leaves the clock where it is — the restored records keep
// their times, so work that was due later in that world may now be due at once (a payout
// answers, a webhook retry goes out, an idempotency key older than 24 h by the clock is gone).
// A reset keeps the clock's time.

// The snapshot's format and wording are the contract's (contract/control/world.ts): the control
// API validates POST /_emulator/snapshot/restore with the same schema.
export { WorldSnapshot };

export function takeSnapshot(services: Services): WorldSnapshot {
  // A deep copy: the snapshot must not change when the world goes on (records are replaced,
  // never edited, but a caller may edit what it was given).
  const collections = structuredClone(services.store.dump());
  // Where the clock stands now (a system clock's stored position is only as recent as its last write).
  collections[CLOCK_STATE.name] = [clockRecord(services.clock)];
  // The request log, parsed from its text (fresh objects: no copy needed), and written whole to
  // disk. (Never the store's `request_log` records an old data dir may hold: they are not the log.)
  const requests = services.requestLog.records();
  if (requests.length > 0) collections[REQUEST_LOG.name] = requests;
  else delete collections[REQUEST_LOG.name];
  services.requestLog.flush();
  return { svc_snapshot: SNAPSHOT_FORMAT, taken_at: new Date(services.clock.now()).toISOString(), collections };
}

/** Checks a snapshot from outside (a file, a request body); a bad one is a 422 naming the field. */
export function parseSnapshot(value: unknown): WorldSnapshot {
  const parsed = WorldSnapshot.safeParse(value);
  if (!parsed.success) throw new ApiError('VALIDATION_ERROR', snapshotProblem(parsed.error));
  return parsed.data;
}

/**
 * Puts a snapshot from outside back (the control API, the testing API, --import): every record
 * is checked against its collection's schema first (world-records.ts), so a refused world is a
 * 422 naming the path and leaves the current one as it was.
 */
export async function restoreSnapshot(services: Services, snapshot: WorldSnapshot): Promise<void> {
  refuseBadWorld(snapshot.collections);
  await putBack(services, snapshot);
}

/** A world this emulator made itself (the seeded fixtures): put back without checking again. */
async function putBack(services: Services, snapshot: WorldSnapshot): Promise<void> {
  const { [REQUEST_LOG.name]: requests = [], ...records } = structuredClone(snapshot.collections) as Record<string, StoredRecord[]>;
  await replaceWorld(services, () => services.store.replaceAll(records), requests as RequestLogRecord[]);
}

/**
 * Back to the fixtures. The seeded world is made once (hashing owner PINs is deliberately slow)
 * and kept, so later resets only copy it back; `seededAtStart` is that world when the
 * emulator seeded an empty store at start, so even the first reset is a copy.
 */
export function fixtureWorld(services: Services, fixtures: () => FixtureFile, seededAtStart?: WorldSnapshot): () => Promise<void> {
  let seeded = seededAtStart;
  return async () => {
    if (seeded) return putBack(services, seeded);
    await replaceWorld(
      services,
      () => {
        services.store.replaceAll({});
        seed(services, fixtures());
      },
      [],
    );
    seeded = takeSnapshot(services);
  };
}

async function replaceWorld(services: Services, replace: () => void, requests: readonly RequestLogRecord[]): Promise<void> {
  services.scheduler.stop();
  const stopped = [...resources].reverse();
  for (const r of stopped) await r.stop?.(services);
  try {
    // One transaction: the new records and the clock's position (forward to the new world's
    // stored time if that is later, never back) reach the journal together.
    services.store.transaction((tx) => {
      replace();
      const incoming = storedClock(services.store);
      if (incoming) services.clock.resume(incoming);
      putClock(tx, services.clock);
    });
    // Only once the store has the new world: a refused one leaves the old log with the old world.
    services.requestLog.replace(requests);
  } finally {
    raiseStampFloor(services);
    // Whatever happened, the background work runs again over the records the store now holds.
    for (const hook of services.hooks.worldReplaced) hook();
    for (const r of resources) r.start?.(services);
    services.scheduler.start();
  }
}

/**
 * Creation stamps (ids.ts) must keep increasing over the records the store holds: after a
 * restart (even if the clock starts earlier) and after a restore of a world stamped later.
 * The one place that raises the floor: every record's `created_at`, the live stream's cursor
 * of every recorded webhook attempt, and the request log's newest `at` (all from the same stamps).
 */
export function raiseStampFloor(services: Pick<Services, 'store' | 'stamps' | 'requestLog'>): void {
  for (const records of Object.values(services.store.dump())) {
    for (const r of records) {
      if (typeof r.created_at === 'string') services.stamps.observe(r.created_at);
      if (Array.isArray(r.attempts)) for (const a of r.attempts as Array<{ cursor?: unknown }>) if (typeof a.cursor === 'string') services.stamps.observe(a.cursor);
    }
  }
  const [newest] = services.requestLog.newestFirst();
  if (newest) services.stamps.observe(formatMicros(newest.micros));
}
