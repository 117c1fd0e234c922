import { API_FLAGS, MONEY_FLAGS, WRITE_FLAGS, type FlagTable } from '../../flags.js';

export const PAYROLL = {
  create: {
    ...WRITE_FLAGS,
    file: { value: '<path>', help: 'CSV with a header row (external_ref,payee_phone,amount_cents[,label]) or JSON', required: true },
    currency: { value: '<code>', help: 'USD or LRD (CSV files, or a JSON array of lines)' },
    note: { value: '<text>', help: 'a note on the run' },
  },
  get: API_FLAGS,
  approve: { ...MONEY_FLAGS, pin: { value: '<pin>', help: 'owner PIN (for scripts)' } },
} as const satisfies Record<string, FlagTable>;
