// The spec's idempotency rules as data, shared by the gateway, the route table and the client.

/** Rule 3: a key lives 24 h from its first use (on the emulator's clock), then may be used again. */
export const LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a key first used at `firstUseMs` is still held at `nowMs`: up to 24 h later it replays
 * (or conflicts); from 24 h on it is free. One comparison for every key — the gateway's headers
 * and body keys, and a charge's cycle key — so none of them expires a millisecond apart.
 */
export const keyHeld = (firstUseMs: number, nowMs: number): boolean => nowMs - firstUseMs < LIFETIME_MS;
/** Rules 2 and 4: a key is a header-safe string of 1 to 255 characters. */
export const MAX_KEY_LENGTH = 255;

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
}
