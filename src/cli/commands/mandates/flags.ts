import { API_FLAGS, WRITE_FLAGS, type FlagTable } from '../../flags.js';
import { choiceFlag, intFlag } from '../../parse.js';

export const MANDATES = {
  create: {
    ...WRITE_FLAGS,
    rail: { value: '<rail>', help: 'card or wallet', parse: choiceFlag(['card', 'wallet'] as const), required: true },
    customerRef: { value: '<ref>', help: 'your own customer id', required: true },
    currency: { value: '<code>', help: 'card: USD; wallet: USD or LRD', required: true },
    maxAmount: { value: '<minor>', help: 'per-charge cap in minor units', parse: intFlag(1, 100_000_000_000), required: true },
    customerEmail: { value: '<email>', help: 'for card receipts' },
    customerPhone: { value: '<phone>', help: "wallet rail: the customer's wallet phone" },
  },
  get: API_FLAGS,
  revoke: WRITE_FLAGS,
} as const satisfies Record<string, FlagTable>;
