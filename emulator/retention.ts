import { DELIVERIES, isScheduled, type DeliveryRecord } from './webhooks/records.js';
import { LIFETIME_MS } from '../contract/idempotency.js';
import type { Services } from './services.js';
import type { StoredRecord } from './store/store.js';
import { IDEMPOTENCY, type IdempotencyRecord } from './gateway/idempotency.js';
import { EVENTS, type EventRecord } from './resources/events/outbox.js';
import { OTP_INBOX, type OtpRecord } from './resources/sub-merchants/otp.js';
import { parseMicros } from './ids.js';
import { sweepWork } from './scheduler/work.js';

// What the store forgets, and when (emulator clock time, so `svc emulator clock advance`
// ages data exactly as days of real use would):
//
//   idempotency records   24 h after they were made: the spec's key lifetime; a replay of an
//                         older key already runs anew (gateway/idempotency.ts), so the record
//                         (with its full response body) is dead weight
//   events + deliveries   `retainDays` (default 7) after the event, once none of its
//                         deliveries is still pending or due for a retry — a retry schedule is never cut short
//   OTP inbox             `retainDays` after the code was sent
//   request log           `retainDays` after the request (and --request-log bounds its count): it
//                         lives beside the store and drops its old entries as it is read or
//                         written (request-log/log.ts); pruning only counts them
//
// Pruning is one ordinary transaction: journaled like any write, so a restart never brings
// pruned records back, and a disk that refuses it costs a log line, not data.
//
// It runs as the scheduler's sweep (`retentionSweep`), due when the oldest record expires: a
// record goes at its own expiry time on the clock (during an advance, with the clock showing
// that time), never at a guess such as "every 10 minutes". `POST /_emulator/store/prune` runs the same
// pruning on demand.

export const DEFAULT_RETAIN_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

interface PruneResult {
  idempotency: number;
  events: number;
  deliveries: number;
  otp: number;
  requests: number;
}

// When each kind of record expires (ms on the emulator clock). Pruning and the sweep's due time
// both read these, so the sweep is never due for a record that pruning would keep.
const retainMs = (services: Pick<Services, 'config'>) => (services.config.retainDays ?? DEFAULT_RETAIN_DAYS) * DAY_MS;
const idempotencyExpiry = (r: IdempotencyRecord) => r.created_at_ms + LIFETIME_MS;
const eventExpiry = (e: EventRecord, retain: number) => Math.ceil(parseMicros(e.created_at) / 1000) + retain;
const otpExpiry = (o: OtpRecord, retain: number) => Date.parse(o.sent_at) + retain;

/** An event whose retry schedule is still running is kept until it ends. */
const deliveriesOpen = (services: Pick<Services, 'store'>, eventId: string) => services.store.byIndex(DELIVERIES, 'by_event', eventId).some(isScheduled);

export function pruneExpired(services: Pick<Services, 'store' | 'clock' | 'config' | 'requestLog'>): PruneResult {
  const now = services.clock.now();
  const retain = retainMs(services);
  const { store } = services;
  const result: PruneResult = { idempotency: 0, events: 0, deliveries: 0, otp: 0, requests: 0 };
  // Ids first, deletes after: the collections must not change under their iterators.
  const idem: string[] = [];
  // Each collection iterates oldest first (insertion order, which snapshots and the journal
  // keep), so a sweep stops at the first record still young: a sweep of a store with 100k live
  // records reads only what expired instead of every record.
  for (const r of store.all(IDEMPOTENCY)) {
    if (idempotencyExpiry(r) > now) break;
    idem.push(r.id);
  }
  const events: Array<{ id: string; deliveries: string[] }> = [];
  for (const e of store.all(EVENTS)) {
    if (eventExpiry(e, retain) > now) break;
    const deliveries = store.byIndex(DELIVERIES, 'by_event', e.id);
    // `failed` with a next attempt due is still on its retry schedule, like `pending`.
    if (deliveries.some(isScheduled)) continue; // due again once they finish (dueOf)
    events.push({ id: e.id, deliveries: deliveries.map((d) => d.id) });
  }
  const otp: string[] = [];
  for (const o of store.all(OTP_INBOX)) {
    if (otpExpiry(o, retain) > now) break;
    otp.push(o.id);
  }
  result.requests = services.requestLog.expire();
  if (idem.length + events.length + otp.length === 0) return result;
  store.transaction((tx) => {
    for (const id of idem) tx.delete(IDEMPOTENCY, id);
    for (const e of events) {
      for (const d of e.deliveries) tx.delete(DELIVERIES, d);
      tx.delete(EVENTS, e.id);
      result.deliveries += e.deliveries.length;
    }
    for (const id of otp) tx.delete(OTP_INBOX, id);
  });
  result.idempotency = idem.length;
  result.events = events.length;
  result.otp = otp.length;
  return result;
}

/** The first record of a collection in insertion order (the oldest, but for a record re-put under its old id). */
function oldest<T extends StoredRecord>(records: IterableIterator<T>): T | undefined {
  for (const r of records) return r;
  return undefined;
}

/** When the sweep next has work: the earliest expiry among the oldest records (events waiting for their deliveries aside). */
function nextRetentionDue(services: Pick<Services, 'store' | 'clock' | 'config'>): number | undefined {
  const { store } = services;
  const now = services.clock.now();
  const retain = retainMs(services);
  let next = Infinity;
  const idem = oldest(store.all(IDEMPOTENCY));
  if (idem) next = Math.min(next, idempotencyExpiry(idem));
  for (const e of store.all(EVENTS)) {
    const due = eventExpiry(e, retain);
    if (due <= now && deliveriesOpen(services, e.id)) continue; // due once its deliveries finish (dueOf)
    next = Math.min(next, due);
    break;
  }
  const otp = oldest(store.all(OTP_INBOX));
  if (otp) next = Math.min(next, otpExpiry(otp, retain));
  return next === Infinity ? undefined : next;
}

/**
 * Retention as the scheduler's sweep. A new record can only bring the sweep's time forward to
 * its own expiry (`dueOf`, cheap: it runs on every write to these collections); a finished
 * delivery of an expired event (one lookup of its event) makes it due at once.
 */
export const retentionSweep = sweepWork({
  name: 'retention',
  collections: [IDEMPOTENCY, EVENTS, OTP_INBOX, DELIVERIES],
  dueOf(collection, record, services) {
    switch (collection) {
      case IDEMPOTENCY.name:
        return idempotencyExpiry(record as IdempotencyRecord);
      case EVENTS.name:
        return eventExpiry(record as EventRecord, retainMs(services));
      case OTP_INBOX.name:
        return otpExpiry(record as OtpRecord, retainMs(services));
      default: {
        const d = record as DeliveryRecord;
        const event = isScheduled(d) ? undefined : services.store.get(EVENTS, d.event_id);
        const now = services.clock.now();
        return event && eventExpiry(event, retainMs(services)) <= now ? now : undefined;
      }
    }
  },
  nextDue: nextRetentionDue,
  run: (services) => void pruneExpired(services),
});
