// The spec's idempotency rules as data, shared by the gateway, the route table and the client.

/** Rule 3: a key lives 24 h from its first use (on the emulator's clock), then may be used again. */
export const LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a key first used at `firstUseMs` is still held at `nowMs`: up to 24 h later it replays
 * (or conflicts); from 24 h on it is free. One comparison for every key — the gateway's headers
 * and body keys, and a charge's cycle key — so none of them expires a millisecond apart.
 */
export const keyHeld = (firstUseMs: number, nowMs: number): boolean => nowMs - firstUseMs < LIFETIME_MS;

/** Rule 2: a key is any string of 1 to 255 characters that the transport can carry. */
export const MAX_KEY_LENGTH = 255;

// How long a key is depends on how it travelled, because the two transports carry different
// things. A header carries bytes (RFC 9110 field values: visible ASCII, inner spaces and tabs,
// and opaque bytes 0x80–0xFF); node refuses anything else before a route sees it, trims spaces
// at either end, and hands the value over one byte per character (latin1). So a header key is
// whatever arrived, counted in bytes: "café" sent as UTF-8 is 5. A JSON body carries Unicode
// text, so a body key is any Unicode string, counted in code points (what JSON Schema's
// maxLength counts, so /openapi.yaml states the same limit): 255 emoji are 255 characters.
// Only a lone surrogate (possible through a "\ud800" escape) is refused: it is not text, has
// no UTF-8 form, and a receiver deduping on data.payment.idempotency_key would read it as U+FFFD.
// Keys are compared exactly as received (no trimming, no Unicode normalization).

/** The rule as messages and /openapi.yaml state it, by transport. */
export const HEADER_KEY_RULE = `1 to ${MAX_KEY_LENGTH} characters as HTTP carries them (a header counts bytes); a UUID works`;
export const BODY_KEY_RULE = `a string of 1 to ${MAX_KEY_LENGTH} Unicode characters (code points); a UUID works`;

/** Why a header key that arrived is malformed (rule 4), or null. Its characters are bytes. */
export function headerKeyProblem(value: string): string | null {
  // A header sent blank, or holding only spaces (trimmed away), arrives empty.
  if (value.length === 0) return 'is empty';
  if (value.length > MAX_KEY_LENGTH) return `is ${value.length} bytes long, ${value.length - MAX_KEY_LENGTH} over the ${MAX_KEY_LENGTH}-byte limit of a header key`;
  return null;
}

/** Why a body key is malformed (rule 4), or null. Positions are 1-based code points. */
export function bodyKeyProblem(value: string): string | null {
  if (value.length === 0) return 'is empty';
  let count = 0;
  for (const ch of value) {
    count++;
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) return `has a lone surrogate at character ${count} (U+${code.toString(16).toUpperCase()}), which is not Unicode text`;
  }
  if (count > MAX_KEY_LENGTH) return `is ${count} characters long, ${count - MAX_KEY_LENGTH} over the ${MAX_KEY_LENGTH}-character limit`;
  return null;
}

export type IdempotencyHeader = 'X-Idempotency-Key' | 'Idempotency-Key';

export interface IdempotencyPolicy {
  header: IdempotencyHeader;
  required: boolean;
  /**
   * A body field that carries a second, required idempotency key (card redemption's
   * `idempotency_key`). It is checked separately from the header, with its own record, but
   * under the same rules: replay, 409 on another body, 422 when missing or malformed.
   */
  bodyField?: string;
  /**
   * A body field holding a key the route keeps itself (a charge's cycle key: one payment per
   * mandate and key, rule 3). The gateway checks it like every key — 422
   * IDEMPOTENCY_KEY_REQUIRED when missing, IDEMPOTENCY_KEY_INVALID when malformed — before the
   * body is validated, and keeps no record of it.
   */
  routeKeyField?: string;
}
