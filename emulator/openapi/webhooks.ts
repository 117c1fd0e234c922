import { EVENT_TYPES, type EventType } from '../../contract/common.js';
import { EVENT_ENVELOPES, EVENT_SUMMARIES } from '../../contract/events.js';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER } from '../../contract/signature.js';
import { DELAYS_MS } from '../webhooks/schedule.js';
import { USER_AGENT } from '../../contract/delivery-headers.js';
import type { WebhookSpec } from './builder.js';
import type { JsonSchema } from './schemas.js';

// The merchant document's `webhooks`: one entry per event type the emulator sends, with the
// body the outbox writes (contract/events.ts, the same schemas its producers are typed by),
// the headers of every attempt (contract/delivery-headers.ts) and the signing scheme
// (contract/signature.ts signPayload). The scheme is also stated as data, `x-webhook-signature`
// at the document's root, so a receiver can be written from the document alone:
// test/contract-property/webhook-receiver.test.ts builds its verifier from nothing else.

export const WEBHOOK_TAG = { name: 'webhooks', description: 'Events the service POSTs to your webhook endpoints (register them with POST /v1/api/webhook-endpoints)' };

const human = (ms: number) => (ms >= 3_600_000 ? `${ms / 3_600_000} h` : ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/** How a delivery is signed, as fields a verifier can be built from. */
export const SIGNATURE_SCHEME = {
  header: SIGNATURE_HEADER,
  format: 't={timestamp},v1={signature}',
  timestamp: 'Unix time in whole seconds (the wall clock, not the emulator clock) when this attempt was signed: a fresh value on every attempt, retries included',
  signed_payload: '{timestamp}.{body}',
  body: 'The raw request body bytes exactly as received, before any JSON parsing (a re-serialized body does not verify)',
  algorithm: 'HMAC-SHA256',
  key: "The endpoint's secret (43 base64url characters, returned once by POST /v1/api/webhook-endpoints), as its UTF-8 bytes",
  key_encoding: 'utf-8',
  signature_encoding: 'hex, lowercase (64 characters)',
  multiple_signatures:
    'Several v1= entries may appear, comma-separated after t= (a sender rotating secrets signs with each): the delivery is authentic when any one matches. Entries of other schemes (v0=, v2=…) are to be ignored; spaces around entries are allowed',
  tolerance_seconds: DEFAULT_TOLERANCE_SECONDS,
  tolerance: 'Refuse a delivery whose timestamp is more than tolerance_seconds before or after your own clock (replay protection); compare in constant time',
} as const;

const SIGNING_TEXT =
  `Every delivery is signed: \`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>\`, where the HMAC is computed over the string ` +
  '`<t>.<raw body>` (the timestamp, a dot, then the request body bytes exactly as received) with the endpoint secret\'s UTF-8 bytes as the key. ' +
  `Verify before parsing the JSON: recompute the HMAC, compare it in constant time with each \`v1\` entry (any one may match), and refuse a \`t\` more than ${DEFAULT_TOLERANCE_SECONDS} s away from your clock. ` +
  'Each attempt is signed afresh (new `t`, new signature); the body is the same bytes on every attempt. The same rules as data: the document\'s `x-webhook-signature`.';

const DELIVERY_TEXT =
  `Delivery is at least once: deduplicate on \`Svc-Delivery\` (or \`data.payment.idempotency_key\` for payment events). Answer 2xx within 10 s. ` +
  `Anything else is a failed attempt, retried after ${DELAYS_MS.map(human).join(', ')} (${DELAYS_MS.length} attempts in all), then dead-lettered; ` +
  'a failed or dead-lettered delivery can be sent again from the dashboard with the same `Svc-Delivery`. No ordering between deliveries is guaranteed.';

/** Header parameters shared by every webhook (components.parameters). */
export const WEBHOOK_PARAMETERS: JsonSchema = {
  SvcSignature: {
    name: SIGNATURE_HEADER,
    in: 'header',
    required: true,
    description: SIGNING_TEXT,
    schema: { type: 'string', pattern: '^t=[0-9]{1,12}(,v1=[0-9a-f]{64})+$', examples: ['t=1795269600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd'] },
  },
  SvcDelivery: {
    name: 'Svc-Delivery',
    in: 'header',
    required: true,
    description: 'The delivery id: the same on every attempt and every redelivery of this event to this endpoint. Deduplicate on it.',
    schema: { type: 'string', pattern: '^dlv_[A-Za-z0-9]+$', examples: ['dlv_3kq9T0vY2mWb8ZcN1xRf'] },
  },
  UserAgent: {
    name: 'User-Agent',
    in: 'header',
    required: true,
    description: `\`${USER_AGENT}\` on the emulator.`,
    schema: { type: 'string', examples: [USER_AGENT] },
  },
};

const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** `payment.completed` → `webhookPaymentCompleted`. */
const operationIdOf = (type: EventType) => `webhook${type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`;

export function webhookSpecs(): WebhookSpec[] {
  return EVENT_TYPES.map((type) => ({
    name: type,
    operationId: operationIdOf(type),
    summary: EVENT_SUMMARIES[type],
    description: `POSTed as \`Content-Type: application/json\` to every endpoint subscribed to \`${type}\`.\n\n${SIGNING_TEXT}\n\n${DELIVERY_TEXT}`,
    tag: WEBHOOK_TAG.name,
    payload: EVENT_ENVELOPES[type],
    headers: [
      ref('SvcSignature'),
      { name: 'Svc-Event', in: 'header', required: true, description: 'The event type; equals the body\'s `type`.', schema: { type: 'string', const: type } },
      ref('SvcDelivery'),
      ref('UserAgent'),
    ],
    responses: {
      '2XX': { description: 'Acknowledged: the delivery succeeded. The body is ignored (its first 1 KB is kept in the attempt log).' },
      '4XX': {
        description: 'A failed attempt, retried on the schedule. Answer 400 (or any 4xx) when the signature does not verify; a redirect (3xx) is not followed and fails the attempt too.',
      },
      default: { description: 'Any other answer, no answer within 10 s, or a refused connection: a failed attempt, retried on the schedule.' },
    },
  }));
}
