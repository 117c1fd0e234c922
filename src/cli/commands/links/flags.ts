import { API_FLAGS, WRITE_FLAGS, type FlagTable } from '../../flags.js';
import { choiceFlag, intFlag } from '../../parse.js';

// `svc links …` flags (flags.ts): read by the registration, the runs and the fast path (`get`).

export const LINKS = {
  create: {
    ...WRITE_FLAGS,
    title: { value: '<text>', help: 'what the payer sees', required: true },
    amount: { value: '<minor>', help: 'amount in minor units (1200 = 12.00); omit for pay-any-amount', parse: intFlag(1, 100_000_000_000) },
    currency: { value: '<code>', help: 'ISO-4217 code (default USD)' },
    description: { value: '<text>', help: 'longer description' },
    methods: { value: '<list>', help: 'accepted methods, comma-separated: card,momo,wallet' },
    expiresAt: { value: '<iso>', help: 'ISO-8601 expiry time' },
    redirectUrl: { value: '<url>', help: 'where checkout returns the payer' },
    metadata: { value: '<json>', help: 'a JSON object, echoed on the webhook' },
    subMerchant: { value: '<id>', help: "settle to this sub-merchant's wallet" },
  },
  get: API_FLAGS,
  simulate: {
    ...WRITE_FLAGS,
    outcome: { value: '<outcome>', help: 'completed or failed (default completed)', parse: choiceFlag(['completed', 'failed'] as const) },
    method: { value: '<method>', help: "card, momo or wallet (default: the link's first method)", parse: choiceFlag(['card', 'momo', 'wallet'] as const) },
    amount: { value: '<minor>', help: 'for a pay-any-amount link', parse: intFlag(1, 100_000_000_000) },
    failOnFailed: { help: 'exit 1 when the payment failed' },
  },
} as const satisfies Record<string, FlagTable>;
