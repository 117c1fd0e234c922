import { API_FLAGS, MONEY_FLAGS, type FlagTable } from '../../flags.js';
import { intFlag } from '../../parse.js';

export const PAYOUTS = {
  create: {
    ...MONEY_FLAGS,
    payee: { value: '<id>', help: 'payee id from the dashboard (svc emulator payees list)', required: true },
    amount: { value: '<minor>', help: 'minor units', parse: intFlag(1, 100_000_000_000), required: true },
    currency: { value: '<code>', help: "the payee's currency", required: true },
    externalRef: { value: '<ref>', help: 'your correlation id' },
  },
  get: API_FLAGS,
  list: {
    ...API_FLAGS,
    limit: { value: '<n>', help: 'page size (1 to 100)', parse: intFlag(1, 100) },
    offset: { value: '<n>', help: 'rows to skip', parse: intFlag(0, 1_000_000_000) },
  },
} as const satisfies Record<string, FlagTable>;
