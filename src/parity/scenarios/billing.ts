import type { Scenario } from '../types.js';
import { charge } from './steps.js';

// Recurring billing: card and wallet mandates, charges that complete or fail (a failure is a
// failed payment, not an HTTP error), the per-charge cap, and revocation.

export const mandates: Scenario = {
  name: 'mandates',
  description: 'Card and wallet mandates, charges of each outcome, the cap, revoke, a charge after revoke',
  steps: [
    { name: 'card-mandate', method: 'POST', path: '/v1/api/mandates', headers: { 'X-Idempotency-Key': 'parity-${run}-card' }, body: { rail: 'card', customer_ref: 'parity-${run}', currency: 'USD', max_amount_cents: 5000, customer_email: 'parity@example.com' } },
    { name: 'wallet-mandate', method: 'POST', path: '/v1/api/mandates', headers: { 'X-Idempotency-Key': 'parity-${run}-wallet' }, body: { rail: 'wallet', customer_ref: 'parity-${run}', currency: 'LRD', max_amount_cents: 5000 } },
    { name: 'get', method: 'GET', path: '/v1/api/mandates/${card-mandate:mandate.id}' },
    charge('charge-completed', 'charge-1', { mandate_id: '${card-mandate:mandate.id}', amount_cents: 1000, outcome: 'completed' }),
    charge('charge-failed', 'charge-2', { mandate_id: '${card-mandate:mandate.id}', amount_cents: 1000, outcome: 'failed' }),
    charge('charge-default', 'charge-3', { mandate_id: '${card-mandate:mandate.id}', amount_cents: 500 }),
    { name: 'charge-payment', method: 'GET', path: '/v1/api/payments/${charge-completed:id}' },
    charge('charge-over-cap', 'charge-4', { mandate_id: '${card-mandate:mandate.id}', amount_cents: 5001 }),
    charge('charge-absent-mandate', 'charge-5', { mandate_id: 'mdt_parity0does0not0exist0', amount_cents: 100 }),
    { name: 'revoke', method: 'DELETE', path: '/v1/api/mandates/${card-mandate:mandate.id}' },
    { name: 'get-revoked', method: 'GET', path: '/v1/api/mandates/${card-mandate:mandate.id}' },
    charge('charge-after-revoke', 'charge-6', { mandate_id: '${card-mandate:mandate.id}', amount_cents: 100 }),
    { name: 'revoke-wallet', method: 'DELETE', path: '/v1/api/mandates/${wallet-mandate:mandate.id}' },
    { name: 'absent', method: 'GET', path: '/v1/api/mandates/mdt_parity0does0not0exist0' },
  ],
};
