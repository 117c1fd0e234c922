import { MONEY_FLAGS, type FlagTable } from '../../flags.js';
import { intFlag } from '../../parse.js';

export const GIFT_CARDS = {
  redeem: {
    ...MONEY_FLAGS,
    wallet: { value: '<id>', help: 'merchant_wallet_id, e.g. mw_test_ada_usd', required: true },
    amount: { value: '<minor>', help: "minor units of the wallet's currency", parse: intFlag(1, 100_000_000_000), required: true },
    reference: { value: '<text>', help: 'your reference' },
    location: { value: '<id>', help: 'location id (reporting only)' },
  },
} as const satisfies Record<string, FlagTable>;
