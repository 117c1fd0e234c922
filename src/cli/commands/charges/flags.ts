import { MONEY_FLAGS, type FlagTable } from '../../flags.js';
import { choiceFlag, intFlag } from '../../parse.js';

export const CHARGES = {
  create: {
    ...MONEY_FLAGS,
    mandate: { value: '<id>', help: 'mandate id', required: true },
    amount: { value: '<minor>', help: 'minor units, at most the mandate cap', parse: intFlag(1, 100_000_000_000), required: true },
    currency: { value: '<code>', help: "the mandate's currency", required: true },
    outcome: { value: '<outcome>', help: 'test mandates only: force completed or failed', parse: choiceFlag(['completed', 'failed'] as const) },
    failOnFailed: { help: 'exit 1 when the charge failed (declined, insufficient funds)' },
  },
} as const satisfies Record<string, FlagTable>;
