import type { Scenario } from '../types.js';

// Payment links and the sandbox's simulate route: every outcome and method, a pay-any-amount
// link, and what a paid link answers to a second simulate.

export const paymentLinks: Scenario = {
  name: 'payment-links',
  description: 'Create a link with every field, read it by id and by code; X-Trace-ID is echoed or generated',
  steps: [
    {
      name: 'create',
      method: 'POST',
      path: '/v1/api/payment-links',
      headers: { 'X-Idempotency-Key': 'parity-${run}-link', 'X-Trace-ID': 'parity-${run}-trace' },
      body: {
        title: 'Parity coffee ${run}',
        description: 'Recorded by svc parity',
        amount: 1200,
        currency: 'USD',
        accepted_methods: ['card', 'momo'],
        redirect_url: 'https://shop.example.com/return?order=parity-${run}',
        metadata: { order: 'parity-${run}', attempt: 1 },
      },
      rules: [{ name: 'trace-id-echoed', kind: 'equal', a: '${this@x-trace-id}', b: 'parity-${run}-trace' }],
    },
    { name: 'get', method: 'GET', path: '/v1/api/payment-links/${create:id}' },
    { name: 'get-by-code', method: 'GET', path: '/v1/api/payment-links/by-code/${create:link_code}', rules: [{ name: 'same-link', kind: 'equal', a: '${this:id}', b: '${create:id}' }] },
    { name: 'create-any-amount', method: 'POST', path: '/v1/api/payment-links', headers: { 'X-Idempotency-Key': 'parity-${run}-any' }, body: { title: 'Parity tip jar ${run}' } },
    { name: 'get-absent-code', method: 'GET', path: '/v1/api/payment-links/by-code/PL-PARITY00' },
  ],
};

const link = (name: string, body: Record<string, unknown>) => ({
  name,
  method: 'POST' as const,
  path: '/v1/api/payment-links',
  headers: { 'X-Idempotency-Key': `parity-\${run}-${name}` },
  body: { title: `Parity ${name} \${run}`, ...body },
});

export const simulate: Scenario = {
  name: 'simulate',
  description: 'Every simulate outcome and method; a pay-any-amount link; a paid link is closed',
  steps: [
    link('link-card', { amount: 1500, currency: 'USD' }),
    { name: 'completed-card', method: 'POST', path: '/v1/api/payment-links/${link-card:id}/simulate', body: { outcome: 'completed', method: 'card' } },
    { name: 'payment-completed', method: 'GET', path: '/v1/api/payments/${completed-card:id}' },
    { name: 'link-after-payment', method: 'GET', path: '/v1/api/payment-links/${link-card:id}' },
    { name: 'again-on-paid-link', method: 'POST', path: '/v1/api/payment-links/${link-card:id}/simulate', body: { outcome: 'completed', method: 'card' } },
    link('link-momo', { amount: 800, currency: 'USD' }),
    { name: 'failed-momo', method: 'POST', path: '/v1/api/payment-links/${link-momo:id}/simulate', body: { outcome: 'failed', method: 'momo' } },
    { name: 'payment-failed', method: 'GET', path: '/v1/api/payments/${failed-momo:id}' },
    link('link-wallet', { amount: 300, currency: 'USD' }),
    { name: 'completed-wallet', method: 'POST', path: '/v1/api/payment-links/${link-wallet:id}/simulate', body: { outcome: 'completed', method: 'wallet' } },
    link('link-defaults', { amount: 450, currency: 'USD' }),
    { name: 'defaults', method: 'POST', path: '/v1/api/payment-links/${link-defaults:id}/simulate', body: {} },
    link('link-any', { currency: 'USD' }),
    { name: 'any-amount-without-amount', method: 'POST', path: '/v1/api/payment-links/${link-any:id}/simulate', body: { outcome: 'completed', method: 'card' } },
    { name: 'any-amount', method: 'POST', path: '/v1/api/payment-links/${link-any:id}/simulate', body: { outcome: 'completed', method: 'card', amount: 777 } },
    link('link-card-only', { amount: 200, currency: 'USD', accepted_methods: ['card'] }),
    { name: 'method-not-accepted', method: 'POST', path: '/v1/api/payment-links/${link-card-only:id}/simulate', body: { outcome: 'completed', method: 'momo' } },
    { name: 'bad-outcome', method: 'POST', path: '/v1/api/payment-links/${link-card-only:id}/simulate', body: { outcome: 'maybe' } },
    { name: 'absent-link', method: 'POST', path: '/v1/api/payment-links/pl_parity0does0not0exist0/simulate', body: { outcome: 'completed' } },
  ],
};
