import type { Scenario } from '../types.js';

// Values that are well formed JSON but invalid: 422 VALIDATION_ERROR (the spec's code for every
// field failure), one step per rule the spec states.

const key = (name: string) => ({ 'X-Idempotency-Key': `parity-\${run}-${name}` });
const createLink = (name: string, body: Record<string, unknown>) => ({ name, method: 'POST' as const, path: '/v1/api/payment-links', headers: key(name), body });

export const validation: Scenario = {
  name: 'validation',
  description: 'Invalid fields answer 422 VALIDATION_ERROR',
  steps: [
    createLink('link-no-title', { amount: 100, currency: 'USD' }),
    createLink('link-amount-not-integer', { title: 'Parity', amount: '12.00', currency: 'USD' }),
    createLink('link-unknown-method', { title: 'Parity', amount: 100, currency: 'USD', accepted_methods: ['cash'] }),
    createLink('link-metadata-over-4000', { title: 'Parity', amount: 100, currency: 'USD', metadata: { blob: 'x'.repeat(4000) } }),
    createLink('link-redirect-not-https', { title: 'Parity', amount: 100, currency: 'USD', redirect_url: 'http://shop.example.com/return' }),
    createLink('link-redirect-credentials', { title: 'Parity', amount: 100, currency: 'USD', redirect_url: 'https://user:pass@shop.example.com/return' }),
    createLink('link-redirect-localhost', { title: 'Parity', amount: 100, currency: 'USD', redirect_url: 'http://localhost:3000/return' }),
    createLink('link-not-json-object', [1, 2, 3] as unknown as Record<string, unknown>),
    { name: 'card-mandate-in-lrd', method: 'POST', path: '/v1/api/mandates', headers: key('mandate-lrd'), body: { rail: 'card', customer_ref: 'parity-${run}', currency: 'LRD', max_amount_cents: 100 } },
    { name: 'mandate-unknown-rail', method: 'POST', path: '/v1/api/mandates', headers: key('mandate-rail'), body: { rail: 'cheque', customer_ref: 'parity-${run}', currency: 'USD', max_amount_cents: 100 } },
    { name: 'payroll-in-eur', method: 'POST', path: '/v1/api/payroll/runs', headers: { 'Idempotency-Key': 'parity-${run}-payroll-eur' }, body: { currency: 'EUR', payments: [{ external_ref: 'p1', payee_phone: '+231770000201', amount_cents: 100 }] } },
    {
      name: 'payroll-501-lines',
      method: 'POST',
      path: '/v1/api/payroll/runs',
      headers: { 'Idempotency-Key': 'parity-${run}-payroll-501' },
      body: { currency: 'USD', payments: Array.from({ length: 501 }, (_, i) => ({ external_ref: `p${i}`, payee_phone: '+231770000201', amount_cents: 1 })) },
    },
    { name: 'payout-no-payee', method: 'POST', path: '/v1/api/payouts', headers: key('payout-no-payee'), body: { amount_cents: 100, currency: 'USD' } },
    { name: 'webhook-no-events', method: 'POST', path: '/v1/api/webhook-endpoints', body: { url: 'https://parity.invalid/hooks', events: [] } },
    { name: 'webhook-unknown-event', method: 'POST', path: '/v1/api/webhook-endpoints', body: { url: 'https://parity.invalid/hooks', events: ['payment.refunded'] } },
    { name: 'webhook-plain-http', method: 'POST', path: '/v1/api/webhook-endpoints', body: { url: 'http://parity.invalid/hooks', events: ['payment.completed'] } },
    { name: 'unknown-route', method: 'GET', path: '/v1/api/parity-no-such-route' },
  ],
};
