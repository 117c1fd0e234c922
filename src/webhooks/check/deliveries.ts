import { createHmac, randomBytes } from 'node:crypto';
import type { EventType } from '../../../contract/common.js';
import type { CheckId, CheckedRequest } from '../../../contract/webhook-check.js';
import { signPayload } from '../../../contract/signature.js';
import { attemptHeaders } from '../../../contract/delivery-headers.js';
import { sampleEvent, unknownEvent } from './samples.js';

type Expected = CheckedRequest['expected'];

// The deliveries `svc webhooks check` sends: each with the engine's headers (attemptHeaders)
// and signed with the engine's signPayload, afresh at send time as every attempt is, except
// where a check breaks one thing on purpose.

export interface Crafted {
  check: CheckId;
  label: string;
  expected: Expected;
  body: string;
  /** The headers, signed now (called once per send: a repeated delivery gets a fresh t, as a retry does). */
  headers(): Record<string, string>;
  /** For the duplicate: sent only once `after` has been answered. */
  after?: Crafted;
  /** Valid deliveries: one plain delivery of its type (not re-laid out, one signature). Whether any was accepted decides what can be graded. */
  plain?: true;
}

/** A type no version of the service sends: the forward-compatibility check's unknown event. */
const UNKNOWN_TYPE = 'svc_check.unknown_type';
/** One second past the 300 s tolerance. */
const STALE_SECONDS = 301;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const freshDeliveryId = () => `dlv_${randomBytes(15).toString('base64url').replace(/[-_]/g, 'x')}`;

/**
 * The same JSON value laid out as no serializer of ours would: keys in reverse order, tabs and
 * newlines, every character beyond ASCII as a \u escape and `/` as `\/`. A receiver that parses
 * and re-serializes before verifying computes the HMAC over other bytes and refuses it.
 */
export function relaidOut(value: unknown): string {
  const reversed = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(reversed) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v;
  return `${JSON.stringify(reversed(value), null, '\t')
    // Outside strings JSON text holds neither, so these only touch string contents.
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/')}\r\n`;
}

/** Every delivery of one run, in report order; the single-delivery checks use the first type. */
export function craft(secret: string, types: readonly EventType[]): Crafted[] {
  const [first] = types;
  /** A delivery of `body`, signed by `sign` at each send (default: as the engine signs; null: no signature header). */
  const one = (check: CheckId, label: string, expected: Expected, type: string, body: string, sign: (t: number) => string | null = (t) => signPayload(secret, body, t)): Crafted => {
    const id = freshDeliveryId();
    const headers = () => {
      const signature = sign(nowSeconds());
      const h = attemptHeaders(type, id, signature ?? '');
      if (signature === null) delete h['svc-signature'];
      return h;
    };
    return { check, label, expected, body, headers };
  };
  const event = (type: EventType = first) => JSON.stringify(sampleEvent(type));
  /** An HMAC no secret the receiver holds can make: 32 random bytes as the key. */
  const stranger = (signed: string) => createHmac('sha256', randomBytes(32)).update(signed).digest('hex');

  // 1. One valid delivery per type; the first type's again re-laid out, and again with two v1=
  // entries, the valid one first (a sender rotating secrets signs with each; the OpenAPI
  // document says several may appear, and any one matching is enough).
  const valid = types.map((type): Crafted => ({ ...one('valid', type, '2xx', type, event(type)), plain: true }));
  valid.push(one('valid', `${first}, re-laid out (whitespace, \\u escapes, key order)`, '2xx', first, relaidOut(sampleEvent(first))));
  const rotated = event();
  valid.push(one('valid', `${first}, two v1= signatures (the valid one first)`, '2xx', first, rotated, (t) => `${signPayload(secret, rotated, t)},v1=${stranger(`${t}.${rotated}`)}`));

  // 2. Deliveries no correct verifier accepts, whatever way it reads the header: none carries a
  // valid signature of its body under any parse. Each a fresh event of the first type;
  // `signed` is the body the signature covers.
  const bad = (check: CheckId, label: string, sign: (signed: string, t: number) => string | null, sent: (signed: string) => string = (b) => b) => {
    const signed = event();
    return one(check, label, 'not 2xx', first, sent(signed), (t) => sign(signed, t));
  };
  const forged = [
    bad('bad', 'no Svc-Signature header', () => null),
    bad('bad', 'malformed Svc-Signature (";" between t and v1, and v1 from another key)', (body, t) => `t=${t};v1=${stranger(`${t}.${body}`)}`),
    bad('bad', 'signed with another secret', (body, t) => signPayload(randomBytes(32).toString('base64url'), body, t)),
    // The last digit of createdAt's microseconds: still valid JSON with the same fields, so only
    // a signature check over the received bytes can tell.
    bad('bad', 'one body byte changed', (body, t) => signPayload(secret, body, t), (body) => body.replace(/(\d)Z"/, (_m, d: string) => `${(Number(d) + 1) % 10}Z"`)),
    bad('bad', 'v1 computed over the body alone (no "<t>.")', (body, t) => `t=${t},v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`),
  ];
  // 3. Signed with the secret, at a time outside the 300 s tolerance: the project's advice.
  const stale = [
    bad('timestamps', `timestamp ${STALE_SECONDS} s old`, (body, t) => signPayload(secret, body, t - STALE_SECONDS)),
    bad('timestamps', 'timestamp a day in the future', (body, t) => signPayload(secret, body, t + 86_400)),
  ];

  // 4. The same delivery twice (same Svc-Delivery, same body), the second once the first is answered.
  const once = one('duplicate', `${first}, first delivery`, '2xx', first, event());
  const again: Crafted = { ...once, label: `${first}, same Svc-Delivery again`, after: once };

  // 5. A type the receiver cannot know, and a known one with fields it cannot know.
  const extended = sampleEvent(first);
  const extra = JSON.stringify({ ...extended, api_version: '2099-01-01', data: { ...extended.data, added_later: { note: 'a field a later version adds' } } });
  const forward = [one('forward_compat', `unknown event type ${UNKNOWN_TYPE}`, '2xx', UNKNOWN_TYPE, JSON.stringify(unknownEvent(UNKNOWN_TYPE))), one('forward_compat', `${first} with extra fields`, '2xx', first, extra)];

  return [...valid, ...forged, ...stale, once, again, ...forward];
}
