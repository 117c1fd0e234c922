import type { Scenario } from '../types.js';

// The idempotency rules: a required key missing or malformed (422), a replay (the original
// answer byte for byte), a conflict (409), payroll's plain Idempotency-Key, and the card
// redemptions' body key.

const linkBody = { title: 'Parity replay ${run}', amount: 900, currency: 'USD' };

export const idempotency: Scenario = {
  name: 'idempotency',
  description: 'Required and malformed keys, replay, conflict; payroll and redemption keys',
  steps: [
    { name: 'link-without-key', method: 'POST', path: '/v1/api/payment-links', body: linkBody },
    { name: 'link-key-too-long', method: 'POST', path: '/v1/api/payment-links', headers: { 'X-Idempotency-Key': `parity-\${run}-${'x'.repeat(250)}` }, body: linkBody },
    { name: 'original', method: 'POST', path: '/v1/api/payment-links', headers: { 'X-Idempotency-Key': 'parity-${run}-replay' }, body: linkBody },
    {
      name: 'replay',
      method: 'POST',
      path: '/v1/api/payment-links',
      headers: { 'X-Idempotency-Key': 'parity-${run}-replay' },
      body: linkBody,
      rules: [
        { name: 'byte-for-byte', kind: 'same-body', as: 'original' },
        { name: 'same-link', kind: 'equal', a: '${this:id}', b: '${original:id}' },
      ],
    },
    { name: 'conflict', method: 'POST', path: '/v1/api/payment-links', headers: { 'X-Idempotency-Key': 'parity-${run}-replay' }, body: { ...linkBody, amount: 901 } },
    { name: 'mandate-without-key', method: 'POST', path: '/v1/api/mandates', body: { rail: 'card', customer_ref: 'parity-${run}', currency: 'USD', max_amount_cents: 100 } },
    { name: 'charge-without-key', method: 'POST', path: '/v1/api/charges', body: { mandate_id: 'mdt_parity0does0not0exist0', amount_cents: 100, currency: 'USD', idempotency_key: 'parity-${run}-cycle' } },
  ],
};
