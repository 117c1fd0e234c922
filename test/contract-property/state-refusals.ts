// What counts as a refusal "for a reason of state" in the property test: the request was
// well-formed by the document, and the server said no because of what it holds (an id that
// names nothing, a cap, a balance, a link already paid, the clock). Anything else — a
// VALIDATION_ERROR about the shape of a value, IDEMPOTENCY_KEY_INVALID — is a rule the
// document failed to state, and fails the test.

/** Codes that only ever mean "not with the records as they are". */
export const STATE_CODES = new Set([
  'NOT_FOUND',
  'LINK_EXPIRED',
  'LINK_CLOSED',
  'MANDATE_NOT_ACTIVE',
  'INSUFFICIENT_BALANCE',
  'SPEND_LIMIT_EXCEEDED',
  'FLEET_CARD_INACTIVE',
  'CATEGORY_NOT_ALLOWED',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'OTP_LOCKED',
  'PIN_INVALID',
  'PIN_LOCKED',
  'INVALID_STATE',
  // The same idempotency key seen earlier with another body: the key's record is state.
  'IDEMPOTENCY_CONFLICT',
]);

/**
 * VALIDATION_ERROR messages that name a record or the clock, not a format: the spec files
 * payout rejections (caps, the payee's currency) and balances under VALIDATION_ERROR, and the
 * emulator does the same for other references a body makes. Each entry says what it depends on.
 */
export const STATE_MESSAGES: Array<[RegExp, string]> = [
  [/^currency: must equal the (mandate|payee)'s currency/, "the mandate's or payee's currency"],
  [/^amount_cents: must be at most the mandate's max_amount_cents/, "the mandate's cap"],
  [/^amount_cents: exceeds the payee's per-payout cap/, "the payee's cap"],
  [/^amount_cents: would take today's total/, "the payee's daily cap and today's payouts"],
  [/^amount_cents: .*insufficient funds|cannot cover/i, 'the wallet balance'],
  [/^payee_id: (no such payee|this payee has been revoked|this payee has not been approved)/, "the payee's existence and status"],
  [/^sub_merchant_id: is not a sub-merchant of this merchant/, 'which sub-merchants exist'],
  [/^customer_phone: no service user has this phone/, 'which users exist'],
  [/^method: this link accepts/, "the link's accepted methods"],
  [/^amount: (is required for a pay-any-amount link|this link has a fixed amount)/, "the link's amount"],
  [/^expires_at: must be in the future/, "the server's clock"],
];

export function isStateRefusal(res: { code?: string; message?: string }): boolean {
  if (res.code !== undefined && STATE_CODES.has(res.code)) return true;
  return res.code === 'VALIDATION_ERROR' && STATE_MESSAGES.some(([re]) => re.test(res.message ?? ''));
}

type Body = Record<string, unknown> | undefined;

/**
 * The control API's VALIDATION_ERRORs that name a record or the clock; some only when the body
 * leaves the compared value to the record (`when`).
 */
export const CONTROL_STATE_MESSAGES: Array<[RegExp, string, ((body: Body) => boolean)?]> = [
  [/would move the clock past/, "the clock's position (it never passes 2200)"],
  [/^per_payout_cap: must not exceed daily_cap/, "the payee's stored cap, when the body sends only one of the two", (b) => b?.per_payout_cap === undefined || b?.daily_cap === undefined],
  [/^pin: the owner's PIN is required/, "the payee's current caps (raising one needs the PIN)"],
  [/^exp_year: the card has expired/, "the server's clock"],
  [/^phone: (this mandate was requested for another phone number|no wallet account has this phone number)/, "the mandate's phone and which users exist"],
];

export function isControlStateRefusal(res: { code?: string; message?: string }, body?: unknown): boolean {
  if (res.code !== undefined && STATE_CODES.has(res.code)) return true;
  return res.code === 'VALIDATION_ERROR' && CONTROL_STATE_MESSAGES.some(([re, , when]) => re.test(res.message ?? '') && (when?.(body as Body) ?? true));
}
