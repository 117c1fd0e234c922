import { API_FLAGS, type FlagTable } from '../../flags.js';
import { choiceFlag, intFlag } from '../../parse.js';

// `svc payments …` flags (flags.ts): read by the registration, the runs and the fast path (`get`).

export const PAYMENTS = {
  get: { ...API_FLAGS, failOnFailed: { help: 'exit 1 when the payment failed' } },
  list: {
    ...API_FLAGS,
    status: { value: '<status>', help: 'pending, completed or failed', parse: choiceFlag(['pending', 'completed', 'failed'] as const) },
    before: { value: '<iso>', help: 'rows created before this time (a next_before cursor)' },
    limit: { value: '<n>', help: 'page size, 1 to 100 (default 50)', parse: intFlag(1, 100) },
    all: { help: 'follow next_before through every page (progress on a terminal)' },
  },
  summary: { ...API_FLAGS, since: { value: '<when>', help: 'ISO-8601 timestamp or date (2026-11-01)' } },
} as const satisfies Record<string, FlagTable>;
