import type { Command } from 'commander';
import { choiceFlag, intFlag } from '../../parse.js';
import { examples, lazy, writeOptions } from '../../options.js';

export const PAYMENT_TRIGGERS = ['payment.completed', 'payment.failed'] as const;
export const PAYROLL_TRIGGERS = ['payroll_run.completed', 'payroll_run.partial', 'payroll_run.failed'] as const;
/** Dashboard-side events (a catalog published, stock running low): emitted by the emulator's control API. */
export const DASHBOARD_TRIGGERS = ['catalog.published', 'inventory.low_stock'] as const;
export const TRIGGERS = [...PAYMENT_TRIGGERS, ...PAYROLL_TRIGGERS, ...DASHBOARD_TRIGGERS] as const;

export function register(trigger: Command): void {
  examples(
    writeOptions(trigger)
      .description('Fire a test event: creates what it needs through the API and makes the event happen')
      .argument('<event>', TRIGGERS.join(' | '))
      .option('--amount <minor>', 'amount in minor units', intFlag(1, 100_000_000_000), 1200)
      .option('--currency <code>', 'currency', 'USD')
      .option('--method <method>', 'card, momo or wallet', choiceFlag(['card', 'momo', 'wallet'] as const), 'card')
      .option('--metadata <json>', 'link metadata (echoed on the webhook as data.link.metadata)')
      .option('--pin <pin>', "payroll_run.*: the owner's PIN to approve the run (prompted on a terminal)")
      .addHelpText(
        'after',
        `
payment.*: creates a payment link and simulates a payment on it (the sandbox simulate route).
payroll_run.*: creates a payroll run (lines to the emulator's service users for completed; one
unmatched phone for partial; only unmatched phones for failed) and approves it with the owner's
PIN through the emulator's control API.
catalog.published / inventory.low_stock: nothing in the merchant API causes them (catalogs and
stock live on the dashboard), so the emulator's control API emits them for the key's merchant,
with sample payloads (docs/spec-gaps.md), through the usual signed deliveries. Emulator only.
Test keys only.`,
      )
      .action(lazy(() => import('./run.js'))),
    ['svc trigger payment.completed', 'svc trigger payment.failed --amount 500 --method momo --json', 'svc trigger payroll_run.partial --pin 1357', 'svc trigger inventory.low_stock --json'],
  );
}
