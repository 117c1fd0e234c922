import type { Services } from '../services.js';
import { DELIVERIES, EVENTS, type AttemptRecord, type DeliveryRecord, type DeliveryStatus, type EventRecord } from '../resources/events/outbox.js';
import { MAX_ATTEMPTS } from './schedule.js';
import { isoMicros } from '../ids.js';

// What the delivery engine adds to the outbox's delivery records, and the shapes the control
// API and the live stream show. Records stay plain JSON in the store; the added fields are
// optional so deliveries written by the outbox (before any attempt) are valid as they are.

export const USER_AGENT = 'svc-emulator-webhooks/1';

/** The headers of one attempt; the signature is the only part that changes between attempts. */
export const attemptHeaders = (eventType: string, deliveryId: string, signature: string): Record<string, string> => ({
  'content-type': 'application/json',
  'user-agent': USER_AGENT,
  'svc-signature': signature,
  'svc-event': eventType,
  'svc-delivery': deliveryId,
});

export interface StoredAttempt extends AttemptRecord {
  /** The Svc-Signature header sent (absent on attempts recorded before it was kept). */
  signature?: string;
  /** 1-based position in the delivery's log (counts every attempt, across redeliveries). */
  attempt: number;
  /**
   * The live stream's cursor for this attempt: a creation stamp (ids.ts) taken when the
   * attempt was recorded. Event cursors are their `created_at`, from the same stamp source,
   * so events and attempts share one increasing order that survives restarts.
   */
  cursor: string;
  /** The delivery's status right after this attempt (the stream replays it as it was). */
  delivery_status: DeliveryStatus;
}

export interface EngineDelivery extends DeliveryRecord {
  attempts: StoredAttempt[];
  /** Index in `attempts` where the current round of 7 began (a redelivery starts a new round). */
  round_start?: number;
  updated_at?: string;
}

export const SCHEDULED_INDEX = 'webhooks_scheduled';
export const SCHEDULED_KEY = 'due';
export const SCOPE_INDEX = 'webhooks_by_scope';

/** Deliveries waiting for an attempt: `pending`, or `failed` with a retry due. */
export const isScheduled = (d: DeliveryRecord) => (d.status === 'pending' || d.status === 'failed') && d.next_attempt_at !== null;

export function defineWebhookIndexes(services: Pick<Services, 'store' | 'stamps'>): void {
  const { store } = services;
  store.defineIndex<EngineDelivery>({ collection: DELIVERIES, name: SCHEDULED_INDEX, key: (d) => (isScheduled(d) ? SCHEDULED_KEY : undefined) });
  store.defineIndex<EngineDelivery>({ collection: DELIVERIES, name: SCOPE_INDEX, key: (d) => `${d.merchant_id}:${d.environment}` });
  // Stream cursors must keep increasing across a restart even if the clock starts earlier.
  for (const e of store.all<EventRecord>(EVENTS)) services.stamps.observe(e.created_at);
  for (const d of store.all<EngineDelivery>(DELIVERIES)) {
    const last = d.attempts[d.attempts.length - 1];
    if (last?.cursor) services.stamps.observe(last.cursor);
  }
}

/** Attempts made in the delivery's current round (1..7). */
export const attemptsInRound = (d: EngineDelivery) => d.attempts.length - (d.round_start ?? 0);

const iso = (ms: number | null) => (ms === null ? null : isoMicros(ms));

/** An attempt as the control API shows it; with its delivery, the request headers it sent (the signature, never the secret). */
export const toPublicAttempt = (a: StoredAttempt, d?: EngineDelivery) => ({
  attempt: a.attempt,
  at: a.at,
  status_code: a.status_code,
  latency_ms: a.latency_ms,
  error: a.error,
  response_excerpt: a.response_excerpt,
  ...(d && a.signature !== undefined ? { request_headers: attemptHeaders(d.event_type, d.id, a.signature) } : {}),
});

/** One delivery as the control API shows it (`attempts` only when asked: the list leaves them out). */
export function toPublicDelivery(d: EngineDelivery, withAttempts: boolean) {
  const last = d.attempts[d.attempts.length - 1];
  return {
    id: d.id,
    event_id: d.event_id,
    endpoint_id: d.endpoint_id,
    merchant_id: d.merchant_id,
    environment: d.environment,
    event_type: d.event_type,
    status: d.status,
    attempt_count: d.attempts.length,
    attempts_left: d.status === 'pending' || d.status === 'failed' ? MAX_ATTEMPTS - attemptsInRound(d) : 0,
    next_attempt_at: iso(d.next_attempt_at),
    last_attempt: last ? toPublicAttempt(last) : null,
    created_at: d.created_at,
    updated_at: d.updated_at ?? d.created_at,
    ...(withAttempts ? { attempts: d.attempts.map((a) => toPublicAttempt(a, d)) } : {}),
  };
}
