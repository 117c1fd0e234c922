import { API_FLAGS, type FlagTable } from '../../flags.js';
import { choiceFlag, intFlag, repeatable } from '../../parse.js';

export const PAYMENT_TRIGGERS = ['payment.completed', 'payment.failed'] as const;
export const PAYROLL_TRIGGERS = ['payroll_run.completed', 'payroll_run.partial', 'payroll_run.failed'] as const;
/** Dashboard-side events (a catalog published, stock running low): emitted by the emulator's control API. */
export const DASHBOARD_TRIGGERS = ['catalog.published', 'inventory.low_stock'] as const;
export const TRIGGERS = [...PAYMENT_TRIGGERS, ...PAYROLL_TRIGGERS, ...DASHBOARD_TRIGGERS] as const;

export const TRIGGER = {
  ...API_FLAGS,
  amount: { value: '<minor>', help: 'amount in minor units', parse: intFlag(1, 100_000_000_000), default: 1200 },
  currency: { value: '<code>', help: 'currency', default: 'USD' },
  method: { value: '<method>', help: 'card, momo or wallet', parse: choiceFlag(['card', 'momo', 'wallet'] as const), default: 'card' },
  metadata: { value: '<json>', help: 'link metadata (echoed on the webhook as data.link.metadata)' },
  pin: { value: '<pin>', help: "payroll_run.*: the owner's PIN to approve the run (prompted on a terminal)" },
  set: { value: '<path=value>', help: "one field of the trigger scenario's first request body (amount=500, metadata.order=\"A-1\"), or <step>.<path>=<value> (repeatable; JSON values, else text)", parse: repeatable },
} as const satisfies FlagTable;
