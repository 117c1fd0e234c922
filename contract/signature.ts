import { createHmac, timingSafeEqual } from 'node:crypto';

// Svc-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>
// The signed string is `<t>.<raw body>`, keyed by the endpoint secret's UTF-8 bytes. This is
// the convention existing verifiers of `t=…,v1=…` headers implement, so a merchant can verify
// with a common library or with `verifySignature` below. The emulator's delivery engine and
// `svc webhooks listen` sign with `signPayload`; receivers and `svc webhooks verify` use
// `verifySignature`.

export const SIGNATURE_HEADER = 'Svc-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, timestamp: number, body: string | Uint8Array) =>
  createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`)
    .update(body)
    .digest('hex');

/** The header value for `body` signed at `timestamp` (unix seconds). */
export function signPayload(secret: string, body: string | Uint8Array, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

export type VerifyFailure = 'missing_header' | 'bad_format' | 'no_matching_signature' | 'too_old' | 'too_new';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure; message: string };

export interface VerifyOptions {
  secret: string;
  /** The Svc-Signature header value. */
  header: string | undefined | null;
  /** The raw body bytes exactly as received (never a re-serialized JSON object). */
  body: string | Uint8Array;
  /** Allowed clock difference in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current unix time in seconds (default: now). */
  now?: number;
}

/**
 * Checks a `t=…,v1=…` header. Several `v1` entries are accepted (a sender rotating secrets
 * signs with each); any one matching is enough. Comparison is constant-time.
 */
export function verifySignature(opts: VerifyOptions): VerifyResult {
  const { secret, header, body } = opts;
  if (!header) return { ok: false, reason: 'missing_header', message: `no ${SIGNATURE_HEADER} header` };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return { ok: false, reason: 'bad_format', message: `"${part.trim()}" is not key=value` };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value)) return { ok: false, reason: 'bad_format', message: 't= must be unix seconds' };
      timestamp = Number(value);
    } else if (key === 'v1') {
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
