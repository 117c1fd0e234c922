import type { ErrorCode } from './errors.js';
import type { IdempotencyPolicy } from './idempotency.js';
import type { SCOPES } from './scopes.js';

// Every merchant route of the service, as plain data: method, path, the scope a key needs, the
// idempotency header it takes, its success status and the error codes it adds to the gateway's
// own. The emulator binds a handler to each name (emulator/resources/*/routes.ts); the client
// calls them by name (src/client/api.ts); the OpenAPI document is generated from them. No zod
// here, so the CLI's cold start reads this table without loading a schema; the schemas of each
// route are in route-schemas.ts, under the same names.

export type Scope = (typeof SCOPES)[number];
type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface RouteFacts {
  method: HttpMethod;
  /** Express-style template: /v1/api/payment-links/:id */
  path: string;
  scope: Scope;
  summary: string;
  /** Needs a business account (403 BUSINESS_ACCOUNT_REQUIRED otherwise). */
  business?: boolean;
  idempotency?: IdempotencyPolicy;
  /** Status on success: 201 for routes that create a resource (200 when absent). */
  status?: 200 | 201;
  /** Error codes this route can answer with beyond the gateway's own. */
  errors?: readonly ErrorCode[];
}

// Order matters where paths overlap: a literal segment (by-code, summary) comes before :id.
export const ROUTES = {
  createCharge: {
    method: 'POST',
    path: '/v1/api/charges',
    scope: 'payments:create',
    // The body's idempotency_key is the cycle key, a key like any other (422
    // IDEMPOTENCY_KEY_REQUIRED / _INVALID), replayed per mandate by the route itself.
    idempotency: { header: 'X-Idempotency-Key', required: true, routeKeyField: 'idempotency_key' },
    status: 201,
    errors: ['NOT_FOUND', 'MANDATE_NOT_ACTIVE'],
    summary: 'Charge a mandate; returns the payment synchronously (a decline is a failed payment, not an error)',
  },
  redeemFleetCard: {
    method: 'POST',
    path: '/v1/fleet-cards/redeem',
    scope: 'fleet_cards:redeem',
    idempotency: { header: 'X-Idempotency-Key', required: false, bodyField: 'idempotency_key' },
    status: 201,
    errors: ['NOT_FOUND', 'FLEET_CARD_INACTIVE', 'CATEGORY_NOT_ALLOWED', 'INSUFFICIENT_BALANCE', 'SPEND_LIMIT_EXCEEDED'],
    summary: 'Redeem a fleet card at a point of sale; the amount is credited to the merchant\'s wallet',
  },
  redeemGiftCard: {
    method: 'POST',
    path: '/v1/gift-cards/redeem',
    scope: 'gift_cards:redeem',
    idempotency: { header: 'X-Idempotency-Key', required: false, bodyField: 'idempotency_key' },
    status: 201,
    errors: ['NOT_FOUND', 'INSUFFICIENT_BALANCE'],
    summary: 'Redeem from a customer\'s gift-card wallet; the amount is credited to the merchant\'s wallet',
  },
  createMandate: {
    method: 'POST',
    path: '/v1/api/mandates',
    scope: 'payments:create',
    idempotency: { header: 'X-Idempotency-Key', required: true },
    status: 201,
    summary: 'Create a mandate (card or wallet rail); test keys get an active mandate, live keys a pending one',
  },
  getMandate: {
    method: 'GET',
    path: '/v1/api/mandates/:id',
    scope: 'payments:read',
    summary: 'Read a mandate',
  },
  revokeMandate: {
    method: 'DELETE',
    path: '/v1/api/mandates/:id',
    scope: 'payments:create',
    idempotency: { header: 'X-Idempotency-Key', required: false },
    summary: 'Revoke a mandate: future charges answer 422 MANDATE_NOT_ACTIVE',
  },
  createLink: {
    method: 'POST',
    path: '/v1/api/payment-links',
    scope: 'payments:create',
    idempotency: { header: 'X-Idempotency-Key', required: true },
    status: 201,
    summary: 'Create a payment link',
  },
  getLinkByCode: {
    method: 'GET',
    path: '/v1/api/payment-links/by-code/:code',
    scope: 'payments:read',
    summary: 'Read a payment link by its link code',
  },
  getLink: {
    method: 'GET',
    path: '/v1/api/payment-links/:id',
    scope: 'payments:read',
    summary: 'Read a payment link',
  },
  simulateLink: {
    method: 'POST',
    path: '/v1/api/payment-links/:id/simulate',
    scope: 'payments:create',
    idempotency: { header: 'X-Idempotency-Key', required: false },
    status: 201,
    errors: ['LINK_EXPIRED', 'LINK_CLOSED'],
    summary: 'Test keys only: settle a payment on a link and fire its webhook',
  },
  paymentSummary: {
    method: 'GET',
    path: '/v1/api/payments/summary',
    scope: 'payments:read',
    summary: 'Per-currency roll-up of payments',
  },
  getPayment: {
    method: 'GET',
    path: '/v1/api/payments/:id',
    scope: 'payments:read',
    summary: 'Read a payment (link payment or mandate charge)',
  },
  listPayments: {
    method: 'GET',
    path: '/v1/api/payments',
    scope: 'payments:read',
    summary: 'List payments of the key\'s environment, newest first',
  },
  createPayout: {
    method: 'POST',
    path: '/v1/api/payouts',
    scope: 'payouts:create',
    business: true,
    // Rule 1: the key is "also sent" on payouts, not required. Without one a payout has no
    // replay protection (two identical POSTs are two payouts); with one every rule applies.
    idempotency: { header: 'X-Idempotency-Key', required: false },
    status: 201,
    // 404: payee_id names no payee of the caller's (a body reference, as a charge's mandate_id).
    errors: ['NOT_FOUND'],
    summary: 'Send a payout to an approved payee; the wallet is debited at acceptance',
  },
  getPayout: {
    method: 'GET',
    path: '/v1/api/payouts/:id',
    scope: 'payouts:read',
    summary: 'Read a payout (poll it: payouts send no webhook)',
  },
  listPayouts: {
    method: 'GET',
    path: '/v1/api/payouts',
    scope: 'payouts:read',
    summary: 'List payouts of the key\'s environment, newest first',
  },
  createPayrollRun: {
    method: 'POST',
    path: '/v1/api/payroll/runs',
    scope: 'payroll:create',
    business: true,
    idempotency: { header: 'Idempotency-Key', required: true },
    status: 201,
    summary: 'Create a payroll run (pending_approval); the owner approves it with a PIN at approval_url',
  },
  getPayrollRun: {
    method: 'GET',
    path: '/v1/api/payroll/runs/:id',
    scope: 'payroll:read',
    business: true,
    summary: 'Read a payroll run with every line',
  },
  startSubMerchant: {
    method: 'POST',
    path: '/v1/api/sub-merchants/start',
    scope: 'sub_merchants:create',
    business: true,
    idempotency: { header: 'X-Idempotency-Key', required: false },
    errors: ['OTP_LOCKED'],
    summary: 'Send an OTP to the future sub-merchant manager\'s phone',
  },
  completeSubMerchant: {
    method: 'POST',
    path: '/v1/api/sub-merchants/complete',
    scope: 'sub_merchants:create',
    business: true,
    idempotency: { header: 'X-Idempotency-Key', required: false },
    status: 201,
    errors: ['OTP_INVALID', 'OTP_EXPIRED', 'OTP_LOCKED'],
    summary: 'Create the sub-merchant with the OTP read back from the manager',
  },
  listSubMerchants: {
    method: 'GET',
    path: '/v1/api/sub-merchants',
    scope: 'sub_merchants:read',
    business: true,
    summary: 'List the merchant\'s sub-merchants (of the key\'s environment)',
  },
  createWebhookEndpoint: {
    method: 'POST',
    path: '/v1/api/webhook-endpoints',
    scope: 'payments:create',
    idempotency: { header: 'X-Idempotency-Key', required: false },
    status: 201,
    summary: 'Register a webhook endpoint (the secret is returned once)',
  },
  listWebhookEndpoints: {
    method: 'GET',
    path: '/v1/api/webhook-endpoints',
    scope: 'payments:read',
    summary: 'List the key environment\'s webhook endpoints',
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    path: '/v1/api/webhook-endpoints/:id',
    scope: 'payments:create',
    idempotency: { header: 'X-Idempotency-Key', required: false },
    summary: 'Revoke a webhook endpoint',
  },
} as const satisfies Record<string, RouteFacts>;

export type RouteName = keyof typeof ROUTES;

/**
 * Which error codes a route can answer with: the gateway's, from its facts, plus its own. The
 * OpenAPI document lists them and the coverage inventory counts them (contract/coverage.ts).
 * Every route can answer 422 VALIDATION_ERROR: a body that is not JSON and an unknown query
 * parameter are refused before any handler runs. 503 is the spec's "temporarily unavailable";
 * 502 is the gateway error the spec tells clients to retry, which fault injection can answer on
 * any route (emulator/faults/api.ts).
 */
export function routeErrorCodes(route: Pick<RouteFacts, 'path' | 'business' | 'idempotency' | 'errors'>): ErrorCode[] {
  const codes = new Set<ErrorCode>(['UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED', 'VALIDATION_ERROR', 'INTERNAL_ERROR', 'BAD_GATEWAY', 'SERVICE_UNAVAILABLE']);
  if (route.business) codes.add('BUSINESS_ACCOUNT_REQUIRED');
  if (route.path.includes(':')) codes.add('NOT_FOUND');
  if (route.idempotency) {
    codes.add('IDEMPOTENCY_KEY_INVALID').add('IDEMPOTENCY_CONFLICT').add('IDEMPOTENCY_IN_FLIGHT');
    if (route.idempotency.required || route.idempotency.bodyField) codes.add('IDEMPOTENCY_KEY_REQUIRED');
  }
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes];
}

/** `/v1/api/payments/:id` + {id: 'pay_1'} → `/v1/api/payments/pay_1` (each value URL-encoded). */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}
