import type { Transaction } from '../store/store.js';

// Every error code the emulator can answer with, and its HTTP status. The spec's codes come
// first; the rest fill "not shown" gaps and are listed in docs/spec-gaps.md.
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  BUSINESS_ACCOUNT_REQUIRED: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_REQUIRED: 422,
  IDEMPOTENCY_KEY_INVALID: 422,
  IDEMPOTENCY_CONFLICT: 409,
  IDEMPOTENCY_IN_FLIGHT: 409,
  RATE_LIMITED: 429,
  FLEET_CARD_INACTIVE: 422,
  CATEGORY_NOT_ALLOWED: 422,
  INSUFFICIENT_BALANCE: 422,
  SPEND_LIMIT_EXCEEDED: 422,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  // Spec gaps (docs/spec-gaps.md):
  LINK_EXPIRED: 422,
  LINK_CLOSED: 422,
  MANDATE_NOT_ACTIVE: 422,
  OTP_INVALID: 422,
  OTP_EXPIRED: 422,
  // A lock the client must not retry soon: 423 like PIN_LOCKED, never the spec's retryable 429.
  OTP_LOCKED: 423,
  PIN_INVALID: 422,
  PIN_LOCKED: 423,
  INVALID_STATE: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error type domain code throws; the gateway turns it into the envelope. */
export class ApiError extends Error {
  readonly status: number;
  /** Writes that stand although the request fails (see CarriesSurvivingWrites in store.ts). */
  survivingWrites?: (tx: Transaction) => void;
  constructor(
    readonly code: ErrorCode,
    message: string,
    status?: number,
  ) {
    super(message);
    this.status = status ?? ERROR_STATUS[code];
  }

  /** Commits `writes` even though this error undoes the request's transaction. */
  keeping(writes: (tx: Transaction) => void): this {
    this.survivingWrites = writes;
    return this;
  }
}

/**
 * A wallet (a merchant's or a service user's) that cannot cover a debit. The spec has no code
 * for it and lists payout rejections as VALIDATION_ERROR, so that is what a client sees;
 * callers that turn it into something else (a failed payroll line) catch this class.
 */
export class InsufficientFundsError extends ApiError {
  constructor(message: string) {
    super('VALIDATION_ERROR', message);
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `No such ${what}.`);
export const invalid = (field: string, why: string) => new ApiError('VALIDATION_ERROR', `${field}: ${why}`);
