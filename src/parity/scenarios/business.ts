import type { Scenario } from '../types.js';

// The business-account routes: sub-merchants (the OTP step cannot be skipped, so the suite
// checks the start and a wrong code), payroll runs (created, never approved: approval is a PIN
// on the service's own pages), and payouts to an approved payee (small test amounts).

export const subMerchants: Scenario = {
  name: 'sub-merchants',
  description: 'Start (an OTP to the manager phone), a wrong code, the list',
  steps: [
    { name: 'start', method: 'POST', path: '/v1/api/sub-merchants/start', body: { manager_phone: '${var:manager_phone}' } },
    { name: 'complete-wrong-otp', method: 'POST', path: '/v1/api/sub-merchants/complete', body: { merchant_name: 'Parity ${run}', manager_phone: '${var:manager_phone}', otp: '000000' } },
    { name: 'list', method: 'GET', path: '/v1/api/sub-merchants', lists: ['$.data.sub_merchants'] },
  ],
};

const runBody = {
  currency: 'USD',
  note: 'parity ${run}',
  payments: [
    { external_ref: 'parity-${run}-a', payee_phone: '${var:manager_phone}', amount_cents: 100, label: 'Matched payee' },
    { external_ref: 'parity-${run}-b', payee_phone: '+231779999999', amount_cents: 100 },
  ],
};

export const payroll: Scenario = {
  name: 'payroll',
  description: 'A run is created pending approval with its lines; the same Idempotency-Key returns it again',
  steps: [
    { name: 'without-key', method: 'POST', path: '/v1/api/payroll/runs', body: runBody },
    { name: 'x-prefixed-key-only', method: 'POST', path: '/v1/api/payroll/runs', headers: { 'X-Idempotency-Key': 'parity-${run}-payroll-x' }, body: runBody },
    { name: 'create', method: 'POST', path: '/v1/api/payroll/runs', headers: { 'Idempotency-Key': 'parity-${run}-payroll' }, body: runBody },
    { name: 'get', method: 'GET', path: '/v1/api/payroll/runs/${create:run.id}' },
    {
      name: 'repost',
      method: 'POST',
      path: '/v1/api/payroll/runs',
      headers: { 'Idempotency-Key': 'parity-${run}-payroll' },
      body: runBody,
      rules: [{ name: 'same-run', kind: 'equal', a: '${this:run.id}', b: '${create:run.id}' }],
    },
    { name: 'absent', method: 'GET', path: '/v1/api/payroll/runs/prun_parity0does0not0exist0' },
  ],
};

const payout = (name: string, body: Record<string, unknown>) => ({ name, method: 'POST' as const, path: '/v1/api/payouts', headers: { 'X-Idempotency-Key': `parity-\${run}-${name}` }, body });

export const payouts: Scenario = {
  name: 'payouts',
  description: "A payout to an approved payee; the payee, currency and cap rejections",
  steps: [
    payout('create', { payee_id: '${var:payee_id}', amount_cents: 100, currency: '${var:payee_currency}', external_ref: 'parity-${run}' }),
    { name: 'get', method: 'GET', path: '/v1/api/payouts/${create:id}' },
    { name: 'list', method: 'GET', path: '/v1/api/payouts', query: { limit: '2' }, lists: ['$.data.payouts'], rules: [{ name: 'at-most-limit', kind: 'max-length', path: 'payouts', max: 2 }] },
    payout('revoked-payee', { payee_id: '${var:payee_revoked_id}', amount_cents: 100, currency: '${var:payee_currency}' }),
    payout('other-currency', { payee_id: '${var:payee_id}', amount_cents: 100, currency: '${var:payee_other_currency}' }),
    payout('over-cap', { payee_id: '${var:payee_id}', amount_cents: 999_999_999, currency: '${var:payee_currency}' }),
    payout('absent-payee', { payee_id: 'payee_parity0does0not0exist', amount_cents: 100, currency: '${var:payee_currency}' }),
    { name: 'absent', method: 'GET', path: '/v1/api/payouts/po_parity0does0not0exist0' },
  ],
};

export const giftCards: Scenario = {
  name: 'gift-cards',
  description: 'Redeem a little from a test gift-card wallet; the body key replays; a balance too small',
  steps: [
    { name: 'redeem', method: 'POST', path: '/v1/gift-cards/redeem', body: { merchant_wallet_id: '${var:gift_card_wallet_id}', amount: 1, reference: 'parity-${run}', idempotency_key: 'parity-${run}-gift' } },
    {
      name: 'retry',
      method: 'POST',
      path: '/v1/gift-cards/redeem',
      body: { merchant_wallet_id: '${var:gift_card_wallet_id}', amount: 1, reference: 'parity-${run}', idempotency_key: 'parity-${run}-gift' },
      rules: [{ name: 'original-result', kind: 'equal', a: '${this:transaction.id}', b: '${redeem:transaction.id}' }],
    },
    { name: 'insufficient', method: 'POST', path: '/v1/gift-cards/redeem', body: { merchant_wallet_id: '${var:gift_card_wallet_id}', amount: 999_999_999, idempotency_key: 'parity-${run}-gift-big' } },
    { name: 'no-key', method: 'POST', path: '/v1/gift-cards/redeem', body: { merchant_wallet_id: '${var:gift_card_wallet_id}', amount: 1 } },
    { name: 'absent-wallet', method: 'POST', path: '/v1/gift-cards/redeem', body: { merchant_wallet_id: 'mw_parity0does0not0exist', amount: 1, idempotency_key: 'parity-${run}-gift-absent' } },
  ],
};

const fleet = (name: string, body: Record<string, unknown>) => ({ name, method: 'POST' as const, path: '/v1/fleet-cards/redeem', body: { ...body, idempotency_key: `parity-\${run}-${name}` } });

export const fleetCards: Scenario = {
  name: 'fleet-cards',
  description: 'Redeem a little from a test fleet card; each fleet-card rejection code',
  steps: [
    fleet('redeem', { fleet_card_id: '${var:fleet_card_id}', category: '${var:fleet_category}', amount_cents: 1, reference: 'parity-${run}' }),
    fleet('inactive', { fleet_card_id: '${var:fleet_card_inactive_id}', category: '${var:fleet_category}', amount_cents: 1 }),
    fleet('category-not-allowed', { fleet_card_id: '${var:fleet_card_id}', category: 'parity-not-a-category', amount_cents: 1 }),
    fleet('over-spend-limit', { fleet_card_id: '${var:fleet_card_id}', category: '${var:fleet_category}', amount_cents: '${var:fleet_over_limit_amount}' }),
    fleet('absent-card', { fleet_card_id: 'fc_parity0does0not0exist', category: '${var:fleet_category}', amount_cents: 1 }),
  ],
};
