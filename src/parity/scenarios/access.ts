import type { Scenario } from '../types.js';
import { charge, paidLink } from './steps.js';

// Authentication and scopes: 401 for a missing, malformed or unknown key; 403 for a key without
// the scope; 404 (no distinction) for another merchant's object and for one that does not exist.

export const auth: Scenario = {
  name: 'auth',
  description: 'A missing, malformed or unknown key is refused with 401 UNAUTHORIZED',
  steps: [
    { name: 'no-key', method: 'GET', path: '/v1/api/payments', auth: 'none' },
    { name: 'not-bearer', method: 'GET', path: '/v1/api/payments', auth: { header: 'Basic c3ZjOnBhcml0eQ==' } },
    { name: 'malformed-key', method: 'GET', path: '/v1/api/payments', auth: { header: 'Bearer not-a-key' } },
    { name: 'unknown-test-key', method: 'GET', path: '/v1/api/payments', auth: { header: 'Bearer svc_test_parity0unknown0key00000000001' } },
    { name: 'no-key-on-write', method: 'POST', path: '/v1/api/payment-links', auth: 'none', headers: { 'X-Idempotency-Key': 'parity-${run}-auth' }, body: { title: 'Parity' } },
  ],
};

export const scopes: Scenario = {
  name: 'scopes',
  description: 'A key without the scope is refused with 403 FORBIDDEN; what it may do still works',
  needs: ['restricted-key'],
  steps: [
    // A payment first: the restricted key's list then has a row (and a next_before) on any host.
    ...paidLink({ link: 'create-link', pay: 'pay-link', key: 'scopes-link', amount: 150, title: 'Parity scopes' }),
    {
      name: 'read-allowed',
      method: 'GET',
      path: '/v1/api/payments',
      auth: 'restricted',
      query: { limit: '1' },
      lists: ['$.data.payments'],
      rules: [{ name: 'newest-is-ours', kind: 'equal', a: '${this:payments[0].id}', b: '${pay-link:id}' }],
    },
    { name: 'create-link-forbidden', method: 'POST', path: '/v1/api/payment-links', auth: 'restricted', headers: { 'X-Idempotency-Key': 'parity-${run}-scopes' }, body: { title: 'Parity ${run}', amount: 100, currency: 'USD' } },
    { name: 'read-payouts-forbidden', method: 'GET', path: '/v1/api/payouts', auth: 'restricted' },
    { name: 'webhook-endpoint-forbidden', method: 'POST', path: '/v1/api/webhook-endpoints', auth: 'restricted', body: { url: 'https://parity.invalid/never', events: ['payment.completed'] } },
  ],
};

export const crossMerchant: Scenario = {
  name: 'cross-merchant',
  description: "Another merchant's objects answer 404 NOT_FOUND, exactly like objects that do not exist",
  needs: ['other-key'],
  steps: [
    ...paidLink({ link: 'create-link', pay: 'pay-link', key: 'xm-link', amount: 250, title: 'Parity' }),
    { name: 'create-mandate', method: 'POST', path: '/v1/api/mandates', headers: { 'X-Idempotency-Key': 'parity-${run}-xm-mandate' }, body: { rail: 'card', customer_ref: 'parity-${run}', currency: 'USD', max_amount_cents: 1000 } },
    { name: 'other-get-link', method: 'GET', path: '/v1/api/payment-links/${create-link:id}', auth: 'other' },
    { name: 'other-get-link-by-code', method: 'GET', path: '/v1/api/payment-links/by-code/${create-link:link_code}', auth: 'other' },
    { name: 'other-simulate', method: 'POST', path: '/v1/api/payment-links/${create-link:id}/simulate', auth: 'other', body: { outcome: 'completed' } },
    { name: 'other-get-payment', method: 'GET', path: '/v1/api/payments/${pay-link:id}', auth: 'other' },
    // The other merchant's own payment: its list has a row on any host, and ours is not in it.
    ...paidLink({ link: 'other-create-link', pay: 'other-pay-link', key: 'xm-other-link', amount: 50, title: 'Parity other', auth: 'other' }),
    {
      name: 'other-list-payments',
      method: 'GET',
      path: '/v1/api/payments',
      auth: 'other',
      query: { limit: '100' },
      lists: ['$.data.payments'],
      rules: [
        { name: 'excludes-our-payment', kind: 'excludes', path: 'payments[*].id', value: '${pay-link:id}' },
        { name: 'has-its-own', kind: 'contains', path: 'payments[*].id', value: '${other-pay-link:id}' },
      ],
    },
    { name: 'other-get-mandate', method: 'GET', path: '/v1/api/mandates/${create-mandate:mandate.id}', auth: 'other' },
    { name: 'other-revoke-mandate', method: 'DELETE', path: '/v1/api/mandates/${create-mandate:mandate.id}', auth: 'other' },
    charge('other-charge-mandate', 'xm-charge', { mandate_id: '${create-mandate:mandate.id}', amount_cents: 100 }, 'other'),
    { name: 'absent-link', method: 'GET', path: '/v1/api/payment-links/pl_parity0does0not0exist0' },
    { name: 'absent-payment', method: 'GET', path: '/v1/api/payments/pay_parity0does0not0exist0' },
    { name: 'mandate-still-active', method: 'GET', path: '/v1/api/mandates/${create-mandate:mandate.id}' },
  ],
};
