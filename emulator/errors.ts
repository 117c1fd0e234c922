import type { Transaction } from './store/store.js';

import { ERROR_STATUS, type ErrorCode } from '../contract/errors.js';

export { ERROR_STATUS, type ErrorCode };

/** The code of an error answer (gateway/envelope.ts errorBody writes it first), or null. */
export const errorCodeOf = (body: string | null) => /^\{"success":false,"error":\{"code":"([^"]+)"/.exec(body ?? '')?.[1] ?? null;

/** The one error type domain code throws; the gateway turns it into the envelope. */
export class ApiError extends Error {
  readonly status: number;
  /** Writes that stand although the request fails (see CarriesSurvivingWrites in store.ts). */
  survivingWrites?: (tx: Transaction) => void;
  /** Sent as Retry-After: when trying again may work (a rate limit's window, a disk that refused a write). */
  retryAfterSeconds?: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    status?: number,
  ) {
    // No stack: an ApiError is an answer, not a bug, and capturing one was the largest cost of
    // a refused request (measured: 14% of the CPU of a load of 422s). Anything else keeps its own.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.status = status ?? ERROR_STATUS[code];
  }

  /** Commits `writes` even though this error undoes the request's transaction. */
  keeping(writes: (tx: Transaction) => void): this {
    this.survivingWrites = writes;
    return this;
  }

  /** Answers with `Retry-After: <seconds>`. */
  retryAfter(seconds: number): this {
    this.retryAfterSeconds = seconds;
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
