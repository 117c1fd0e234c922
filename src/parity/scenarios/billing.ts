import type { Scenario } from '../types.js';

// Recurring billing: card and wallet mandates, charges that complete or fail (a failure is a
// failed payment, not an HTTP error), the per-charge cap, and revocation.

export const mandates: Scenario = {
  name: 'mandates',
  description: 'Card and wallet mandates, charges of each outcome, the cap, revoke, a charge after revoke',
  steps: [
    { name: 'card-mandate', method: 'POST', path: '/v1/api/mandates', headers: { 'X-Idempotency-Key': 'parity-${run}-card' }, body: { rail: 'card', customer_ref: 'parity-${run}', currency: 'USD', max_amount_cents: 5000, customer_email: 'parity@example.com' } },
    { name: 'wallet-mandate', method: 'POST', path: '/v1/api/mandates', headers: { 'X-Idempotency-Key': 'parity-${run}-wallet' }, body: { rail: 'wallet', customer_ref: 'parity-${run}', currency: 'LRD', max_amount_cents: 5000 } },
    { name: 'get', method: 'GET', path: '/v1/api/mandates/${card-mandate:mandate.id}' },
    {
      name: 'charge-completed',
      method: 'POST',
      path: '/v1/api/charges',
      headers: { 'X-Idempotency-Key': 'parity-${run}-charge-1' },
      body: { mandate_id: '${card-mandate:mandate.id}', amount_cents: 1000, currency: 'USD', idempotency_key: 'parity-${run}-cycle-1', outcome: 'completed' },
    },
    {
      name: 'charge-failed',
      method: 'POST',
      path: '/v1/api/charges',
      headers: { 'X-Idempotency-Key': 'parity-${run}-charge-2' },
      body: { mandate_id: '${card-mandate:mandate.id}', amount_cents: 1000, currency: 'USD', idempotency_key: 'parity-${run}-cycle-2', outcome: 'failed' },
    },
    {
      name: 'charge-default',
      method: 'POST',
      path: '/v1/api/charges',
      headers: { 'X-Idempotency-Key': 'parity-${run}-charge-3' },
      body: { mandate_id: '${card-mandate:mandate.id}', amount_cents: 500, currency: 'USD', idempotency_key: 'parity-${run}-cycle-3' },
    },
    { name: 'charge-payment', method: 'GET', path: '/v1/api/payments/${charge-completed:id}' },
    {
      name: 'charge-over-cap',
      method: 'POST',
      path: '/v1/api/charges',
      headers: { 'X-Idempotency-Key': 'parity-${run}-charge-4' },
      body: { mandate_id: '${card-mandate:mandate.id}', amount_cents: 5001, currency: 'USD', idempotency_key: 'parity-${run}-cycle-4' },
    },
    {
      name: 'charge-absent-mandate',
      method: 'POST',
      path: '/v1/api/charges',
      headers: { 'X-Idempotency-Key': 'parity-${run}-charge-5' },
      body: { mandate_id: 'mdt_parity0does0not0exist0', amount_cents: 100, currency: 'USD', idempotency_key: 'parity-${run}-cycle-5' },
    },
    { name: 'revoke', method: 'DELETE', path: '/v1/api/mandates/${card-mandate:mandate.id}' },
    { name: 'get-revoked', method: 'GET', path: '/v1/api/mandates/${card-mandate:mandate.id}' },
    {
      name: 'charge-after-revoke',
      method: 'POST',
      path: '/v1/api/charges',
      headers: { 'X-Idempotency-Key': 'parity-${run}-charge-6' },
      body: { mandate_id: '${card-mandate:mandate.id}', amount_cents: 100, currency: 'USD', idempotency_key: 'parity-${run}-cycle-6' },
    },
    { name: 'revoke-wallet', method: 'DELETE', path: '/v1/api/mandates/${wallet-mandate:mandate.id}' },
    { name: 'absent', method: 'GET', path: '/v1/api/mandates/mdt_parity0does0not0exist0' },
  ],
};
