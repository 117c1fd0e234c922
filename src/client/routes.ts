import type { IdempotencyHeader } from './http.js';

// Every merchant route the client calls, as data: method, path template and the idempotency
// header the route takes. A test compares this table with the emulator's own route
// declarations (emulator/registry.ts), so the client cannot drift from the contract.
//
// `key: 'required'` routes always get a key (a UUID unless --idempotency-key is given); on
// `optional` routes the client sends one anyway, so every write can be retried safely.

export interface RouteSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  idempotency?: { header: IdempotencyHeader; key: 'required' | 'optional' };
}

const x = (key: 'required' | 'optional') => ({ header: 'X-Idempotency-Key' as const, key });

export const ROUTES = {
  createLink: { method: 'POST', path: '/v1/api/payment-links', idempotency: x('required') },
  getLink: { method: 'GET', path: '/v1/api/payment-links/:id' },
  getLinkByCode: { method: 'GET', path: '/v1/api/payment-links/by-code/:code' },
  simulateLink: { method: 'POST', path: '/v1/api/payment-links/:id/simulate', idempotency: x('optional') },
  getPayment: { method: 'GET', path: '/v1/api/payments/:id' },
  listPayments: { method: 'GET', path: '/v1/api/payments' },
  paymentSummary: { method: 'GET', path: '/v1/api/payments/summary' },
  createMandate: { method: 'POST', path: '/v1/api/mandates', idempotency: x('required') },
  getMandate: { method: 'GET', path: '/v1/api/mandates/:id' },
  revokeMandate: { method: 'DELETE', path: '/v1/api/mandates/:id', idempotency: x('optional') },
  createCharge: { method: 'POST', path: '/v1/api/charges', idempotency: x('required') },
  startSubMerchant: { method: 'POST', path: '/v1/api/sub-merchants/start', idempotency: x('optional') },
  completeSubMerchant: { method: 'POST', path: '/v1/api/sub-merchants/complete', idempotency: x('optional') },
  listSubMerchants: { method: 'GET', path: '/v1/api/sub-merchants' },
  createPayrollRun: { method: 'POST', path: '/v1/api/payroll/runs', idempotency: { header: 'Idempotency-Key', key: 'required' } },
  getPayrollRun: { method: 'GET', path: '/v1/api/payroll/runs/:id' },
  createPayout: { method: 'POST', path: '/v1/api/payouts', idempotency: x('required') },
  getPayout: { method: 'GET', path: '/v1/api/payouts/:id' },
  listPayouts: { method: 'GET', path: '/v1/api/payouts' },
  redeemGiftCard: { method: 'POST', path: '/v1/gift-cards/redeem', idempotency: x('optional') },
  redeemFleetCard: { method: 'POST', path: '/v1/fleet-cards/redeem', idempotency: x('optional') },
  createWebhookEndpoint: { method: 'POST', path: '/v1/api/webhook-endpoints', idempotency: x('optional') },
  listWebhookEndpoints: { method: 'GET', path: '/v1/api/webhook-endpoints' },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/v1/api/webhook-endpoints/:id', idempotency: x('optional') },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

/** `/v1/api/payments/:id` + {id: 'pay_1'} → `/v1/api/payments/pay_1` (each value URL-encoded). */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}
