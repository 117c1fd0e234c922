import { storedCollection, type RecordOf } from '../store/collection.js';
import { MAX_ATTEMPTS } from './schedule.js';
import { isoMicros } from '../ids.js';
import { attemptHeaders } from '../../contract/delivery-headers.js';
import type { z } from 'zod';
import type { Delivery, DeliveryRow } from '../../contract/control/webhooks.js';

// The webhook delivery record, owned here: the outbox (resources/events/outbox.ts) writes one per
// subscribed endpoint with no attempt yet, the delivery engine appends attempts and moves its
// status, the control API, the dashboard and the live stream read it.

// Its fields, with what each means: contract/records/system.ts DeliveryRecord.
export type DeliveryRecord = RecordOf<'webhook_deliveries'>;
export type DeliveryStatus = DeliveryRecord['status'];
export type StoredAttempt = DeliveryRecord['attempts'][number];

export const SCHEDULED_KEY = 'due';

/** Deliveries waiting for an attempt: `pending`, or `failed` with a retry due. */
export const isScheduled = (d: DeliveryRecord) => (d.status === 'pending' || d.status === 'failed') && d.next_attempt_at !== null;

export const DELIVERIES = storedCollection('webhook_deliveries', {
  by_endpoint: (d) => d.endpoint_id,
  by_event: (d) => d.event_id,
  /** What the engine must attempt: its schedule after a restart, and what idle() waits on. */
  scheduled: (d) => (isScheduled(d) ? SCHEDULED_KEY : undefined),
  by_scope: (d) => `${d.merchant_id}:${d.environment}`,
});

/** Attempts made in the delivery's current round (1..7). */
export const attemptsInRound = (d: DeliveryRecord) => d.attempts.length - (d.round_start ?? 0);

const iso = (ms: number | null) => (ms === null ? null : isoMicros(ms));

export type PublicAttempt = ReturnType<typeof toPublicAttempt>;

/** The fields of a delivery the control API shows, in a list and alone. */
type PublicDelivery = z.input<typeof DeliveryRow>;

/** An attempt as the control API shows it; with its delivery, the request headers it sent (the signature, never the secret). */
export const toPublicAttempt = (a: StoredAttempt, d?: DeliveryRecord) => ({
  attempt: a.attempt,
  at: a.at,
  status_code: a.status_code,
  latency_ms: a.latency_ms,
  error: a.error,
  response_excerpt: a.response_excerpt,
  ...(d && a.signature !== undefined ? { request_headers: attemptHeaders(d.event_type, d.id, a.signature) } : {}),
});

/** One delivery as the control API shows it (`attempts` only when asked: the list leaves them out). */
export function toPublicDelivery(d: DeliveryRecord, withAttempts: true): z.input<typeof Delivery>;
export function toPublicDelivery(d: DeliveryRecord, withAttempts: false): PublicDelivery;
export function toPublicDelivery(d: DeliveryRecord, withAttempts: boolean): PublicDelivery & { attempts?: PublicAttempt[] } {
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
