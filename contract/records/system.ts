import { z } from 'zod';
import { Count, Env, Id, SafeInt, Stamp, Text } from './fields.js';

// The emulator's own records: events and their webhook deliveries, endpoints, idempotency
// replays, the clock's position, PIN and OTP guards, and the checkout pages' one-time tokens.
// These are the emulator's record types too (emulator/store/collection.ts RecordOf).

export const EventRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  type: Text,
  /** The exact JSON body every delivery of this event sends. */
  body: Text,
  created_at: Stamp,
});

export const EndpointRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  url: Text,
  events: z.array(Text),
  /** Kept in full: the delivery engine signs with it. Only `secret_hint` is ever read back. */
  secret: Text,
  created_at: Stamp,
  deleted_at: Stamp.optional(),
});

const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'dead_letter', 'cancelled']);

export const DeliveryRecord = z.object({
  id: Id,
  event_id: Id,
  endpoint_id: Id,
  merchant_id: Id,
  environment: Env,
  event_type: Text,
  status: DeliveryStatus,
  attempts: z.array(
    z.object({
      at: Stamp,
      status_code: SafeInt.nullable(),
      latency_ms: Count,
      error: Text.nullable(),
      response_excerpt: Text,
      /** The Svc-Signature header sent (absent on attempts recorded before it was kept). */
      signature: Text.optional(),
      /** 1-based position in the delivery's log (counts every attempt, across redeliveries). */
      attempt: Count,
      /**
       * The live stream's cursor for this attempt: a creation stamp (ids.ts) taken when the
       * attempt was recorded. Event cursors are their `created_at`, from the same stamp source,
       * so events and attempts share one increasing order that survives restarts.
       */
      cursor: Stamp,
      /** The delivery's status right after this attempt (the stream replays it as it was). */
      delivery_status: DeliveryStatus,
    }),
  ),
  /** Index in `attempts` where the current round of 7 began (a redelivery starts a new round). */
  round_start: Count.optional(),
  /** Clock time (ms) of the next attempt while pending or failed with a retry due. */
  next_attempt_at: Count.nullable(),
  /**
   * Clock time (ms) an attempt started, written before it is sent and cleared when it is
   * recorded: one left after a restart is an attempt the receiver may have had (emulator/webhooks/engine.ts).
   */
  started_at: Count.optional(),
  created_at: Stamp,
  updated_at: Stamp.optional(),
});

export const IdempotencyRecord = z.object({ id: Id, merchant_id: Id, key: Text, fingerprint: Text, status: Count, body: Text, created_at_ms: Count });

/** The clock's position (emulator/scheduler/clock-record.ts): one record, id "clock". */
export const ClockRecord = z.object({ id: z.literal('clock'), mode: z.enum(['system', 'manual']), now_ms: Count, offset_ms: z.number() });

export const PinAttemptRecord = z.object({ id: Id, failures: Count, locked_until_ms: Count.nullable() });

export const OtpRecord = z.object({
  id: Id,
  /** E.164 */
  phone: Text,
  code: Text,
  purpose: z.literal('sub_merchant'),
  merchant_id: Id,
  environment: Env,
  sent_at: Stamp,
  expires_at: Stamp,
  failures: Count,
  /** Set when the code was used, burned by too many wrong tries, or replaced by a newer one. */
  spent_at: Stamp.nullable(),
});

export const OtpLockRecord = z.object({ id: Id, locked_until_ms: Count });

/** The checkout pages' signing secret. */
export const FormSecretRecord = z.object({ id: Id, secret: Text });

export const FormSubmissionRecord = z.object({
  /** The token's nonce. */
  id: Id,
  subject: Text,
  /** Where the result of the first submission is shown (a path under /checkout). */
  result_path: Text,
  created_at: Stamp,
});

/** One /v1 request as the request log keeps it (emulator/request-log/): bodies already redacted. */
export const RequestLogRecord = z.object({
  id: Id,
  at: Stamp,
  at_ms: Count,
  method: Text,
  path: Text,
  status: SafeInt,
  duration_ms: z.number().min(0),
  key_name: Text.nullable(),
  key_last4: Text.nullable(),
  merchant_id: Text.nullable(),
  environment: Env.nullable(),
  idempotency_key: Text.nullable(),
  idempotency: z.enum(['replayed', 'in_flight']).nullable(),
  trace_id: Text,
  error_code: Text.nullable(),
  fault: Text.nullable(),
  request_body: Text.nullable(),
  response_body: Text.nullable(),
  resources: z.array(Text),
});
