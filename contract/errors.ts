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

/** The message of anything thrown: an Error's, else the value as text. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The string `code` of anything thrown (a system error's ENOENT, undici's, a prompt's), if it has one. */
export const codeOf = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
