import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DEFAULT_TOLERANCE_SECONDS } from './signature-tolerance.js';

// Svc-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>
// The signed string is `<t>.<raw body>`, keyed by the endpoint secret's UTF-8 bytes. This is
// the convention existing verifiers of `t=…,v1=…` headers implement, so a merchant can verify
// with a common library or with `verifySignature` below. The emulator's delivery engine and
// `svc webhooks listen` sign with `signPayload`; receivers, `svc webhooks verify` and
// `svc webhooks listen --port` use `verifySignature`. Merchants' tests build signed requests
// with `generateTestHeaderString` / `generateTestDelivery` (the shape of stripe-node's
// `generateTestHeaderString`), which sign with the same function.

export const SIGNATURE_HEADER = 'Svc-Signature';
export const EVENT_HEADER = 'Svc-Event';
export const DELIVERY_HEADER = 'Svc-Delivery';
export { DEFAULT_TOLERANCE_SECONDS };

/** The one scheme this version signs and checks; other names in a header are ignored. */
const SCHEME = 'v1';
/** `t` as verifySignature reads it: unix seconds, at most 12 digits (a 13-digit t is milliseconds). */
const MAX_TIMESTAMP = 999_999_999_999;

const hmacHex = (secret: string, timestamp: number, body: string | Uint8Array) =>
  createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`)
    .update(body)
    .digest('hex');

/** A missing secret (an unset environment variable) must never verify, nor sign, with an empty key. */
function checkSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret === '') throw new TypeError('secret: the endpoint secret must be a non-empty string');
}

/** The header value for `body` signed at `timestamp` (unix seconds). */
export function signPayload(secret: string, body: string | Uint8Array, timestamp: number): string {
  return `t=${timestamp},${SCHEME}=${hmacHex(secret, timestamp, body)}`;
}

export type VerifyFailure = 'missing_header' | 'bad_format' | 'no_matching_signature' | 'too_old' | 'too_new';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure; message: string };

export interface VerifyOptions {
  /** The endpoint secret (a non-empty string: an empty one throws a TypeError, it never verifies). */
  secret: string;
  /** The Svc-Signature header value. */
  header: string | undefined | null;
  /** The raw body bytes exactly as received (never a re-serialized JSON object). */
  body: string | Uint8Array;
  /** Allowed clock difference in seconds, either way (default 300). */
  toleranceSeconds?: number;
  /** Current unix time in seconds (default: now). */
  now?: number;
}

/**
 * Checks a `t=…,v1=…` header. Several `v1` entries are accepted (a sender rotating secrets
 * signs with each); any one matching is enough. Comparison is constant-time. Whitespace
 * around entries, keys and values is ignored; `t` must appear once, as whole unix seconds;
 * every `v1` must be 64 lowercase hex characters (the sender's form: an uppercase one is
 * `bad_format`). A timestamp exactly `toleranceSeconds` away is still accepted.
 */
export function verifySignature(opts: VerifyOptions): VerifyResult {
  const { secret, header, body } = opts;
  checkSecret(secret);
  if (!header) return { ok: false, reason: 'missing_header', message: `no ${SIGNATURE_HEADER} header` };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return { ok: false, reason: 'bad_format', message: `"${part.trim()}" is not key=value` };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      // Two t= entries would leave verifiers disagreeing on which one was signed.
      if (timestamp !== undefined) return { ok: false, reason: 'bad_format', message: 'more than one t= timestamp' };
      if (!/^\d{1,12}$/.test(value)) return { ok: false, reason: 'bad_format', message: 't= must be unix seconds' };
      timestamp = Number(value);
    } else if (key === SCHEME) {
      if (!/^[0-9a-f]{64}$/.test(value)) return { ok: false, reason: 'bad_format', message: 'v1= must be 64 lowercase hex characters' };
      candidates.push(value);
    }
    // Unknown schemes (v0, v2, …) are ignored, so a future scheme does not break old verifiers.
  }
  if (timestamp === undefined) return { ok: false, reason: 'bad_format', message: 'no t= timestamp' };
  if (candidates.length === 0) return { ok: false, reason: 'bad_format', message: 'no v1= signature' };

  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  const matched = candidates.some((c) => timingSafeEqual(Buffer.from(c, 'hex'), expected));
  if (!matched) return { ok: false, reason: 'no_matching_signature', message: 'no v1 signature matches this secret and body' };

  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (timestamp < now - tolerance) return { ok: false, reason: 'too_old', message: `signed ${now - timestamp} s ago; tolerance is ${tolerance} s` };
  if (timestamp > now + tolerance) return { ok: false, reason: 'too_new', message: `signed ${timestamp - now} s in the future; tolerance is ${tolerance} s` };
  return { ok: true, timestamp };
}

export interface TestHeaderOptions {
  /** The raw body exactly as your handler will receive it (the bytes that are signed). */
  payload: string | Uint8Array;
  /** The endpoint secret your handler verifies with. */
  secret: string;
  /** Unix seconds (default: now); a fraction is floored. Set it to test your tolerance check. */
  timestamp?: number;
  /** The name the signature is given (default `v1`): another name tests that a handler ignores schemes it does not know. */
  scheme?: string;
  /** Put this text in the header instead of the computed signature (to test a handler's refusal). */
  signature?: string;
}

/**
 * The `Svc-Signature` value a real delivery of `payload` would carry: `t=<timestamp>,v1=<hex
 * HMAC-SHA256 of "<t>.<payload>">`, computed exactly as the emulator signs. For your own
 * webhook handler's tests, as stripe-node's `generateTestHeaderString` is for Stripe's.
 */
export function generateTestHeaderString(opts: TestHeaderOptions): string {
  const { payload, secret } = opts;
  checkSecret(secret);
  const timestamp = Math.floor(opts.timestamp ?? Date.now() / 1000);
  if (!(timestamp >= 0 && timestamp <= MAX_TIMESTAMP)) {
    throw new RangeError(`timestamp: unix seconds from 0 to ${MAX_TIMESTAMP} (got ${opts.timestamp}; milliseconds are too many digits)`);
  }
  const scheme = opts.scheme ?? SCHEME;
  // A name holding `,` or `=`, or named `t`, would make a header of another shape than asked.
  if (!/^[A-Za-z0-9_]+$/.test(scheme) || scheme === 't') throw new RangeError(`scheme: a name of letters, digits or _ other than "t" (got "${scheme}")`);
  return `t=${timestamp},${scheme}=${opts.signature ?? hmacHex(secret, timestamp, payload)}`;
}

/**
 * The headers of a delivery, named as node:http hands them to a handler (lower case). A type,
 * not an interface, so it fits fetch's and node:http's header records as it is.
 */
export type TestDeliveryHeaders = {
  'content-type': 'application/json';
  'svc-signature': string;
  'svc-event': string;
  'svc-delivery': string;
};

interface TestDeliveryCommon {
  secret: string;
  /** Svc-Delivery (default: a fresh `dlv_test_…`); reuse one to test your handler's dedupe. */
  deliveryId?: string;
  /** Unix seconds of the signature (default: now). */
  timestamp?: number;
}

/** The event as an object: serialized once with JSON.stringify, and that text is signed and sent. */
export interface TestDeliveryOfEvent extends TestDeliveryCommon {
  event: { readonly type: string; readonly [field: string]: unknown };
}

/** The exact raw body, and the event type for Svc-Event. */
export interface TestDeliveryOfPayload extends TestDeliveryCommon {
  payload: string | Uint8Array;
  type: string;
}

export interface TestDelivery<Body extends string | Uint8Array> {
  body: Body;
  headers: TestDeliveryHeaders;
}

/**
 * A whole delivery as the emulator would POST it (body and the headers it carries besides
 * User-Agent), signed now or at `timestamp`: send it to your handler in a test.
 */
export function generateTestDelivery(opts: TestDeliveryOfEvent): TestDelivery<string>;
export function generateTestDelivery<Body extends string | Uint8Array>(opts: TestDeliveryOfPayload & { payload: Body }): TestDelivery<Body>;
export function generateTestDelivery(opts: TestDeliveryOfEvent | TestDeliveryOfPayload): TestDelivery<string | Uint8Array> {
  const [body, type] = 'event' in opts ? [JSON.stringify(opts.event), opts.event.type] : [opts.payload, opts.type];
  if (typeof type !== 'string' || type === '') throw new TypeError('the event type (Svc-Event) must be a non-empty string');
  const signature = generateTestHeaderString({ payload: body, secret: opts.secret, timestamp: opts.timestamp });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'svc-signature': signature,
      'svc-event': type,
      'svc-delivery': opts.deliveryId ?? `dlv_test_${randomBytes(8).toString('hex')}`,
    },
  };
}
