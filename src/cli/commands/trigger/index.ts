import type { Command } from 'commander';
import { define } from '../../options.js';
import { TRIGGER, TRIGGERS } from './flags.js';

export function register(trigger: Command): void {
  define(
    trigger,
    'Fire a test event with your data: runs the shipped trigger scenario (svc scenario list), which creates what it needs through the API',
    TRIGGER,
    () => import('./run.js'),
    'run',
    [
      'svc trigger payment.completed',
      'svc trigger payment.failed --amount 500 --method momo --json',
      'svc trigger payment.completed --set currency=LRD --set metadata=\'{"order":"A-1"}\'',
      'svc trigger payroll_run.partial --pin 1357',
      'svc trigger inventory.low_stock --json',
    ],
    `
payment.*: creates a payment link and simulates a payment on it (the sandbox simulate route).
payroll_run.*: creates a payroll run (lines to the emulator's service users for completed; one
unmatched phone for partial; only unmatched phones for failed) and approves it with the owner's
PIN through the emulator's control API.
catalog.published / inventory.low_stock: nothing in the merchant API causes them (catalogs and
stock live on the dashboard), so the emulator's control API emits them for the key's merchant,
with sample payloads (docs/spec-gaps.md), through the usual signed deliveries. Emulator only.
Each event is a scenario file (scenarios/triggers/<event>.yaml in the package): --set <path>=<value>
sets a field of its first request body (the link, the payroll run), --set <step>.<path>=<value>
one of another step's. Test keys only.`,
  ).argument('<event>', TRIGGERS.join(' | '));
}
