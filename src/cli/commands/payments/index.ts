import type { Command } from 'commander';
import { verb } from '../../options.js';
import { PAYMENTS } from './flags.js';

export function register(payments: Command): void {
  verb(payments, 'get', 'Read a payment (link payment or mandate charge)', PAYMENTS.get, () => import('./get.js'), 'run', [
    'svc payments get pay_7Mn3Bv8Cx2Za6Sd1Fg5H',
    'svc payments get pay_7Mn3Bv8Cx2Za6Sd1Fg5H --json --fail-on-failed',
  ]).argument('<id>', 'payment id');
  verb(payments, 'list', "List payments of the key's environment, newest first", PAYMENTS.list, () => import('./list.js'), 'run', [
    'svc payments list',
    'svc payments list --status failed --limit 10',
    'svc payments list --all --json | jq ".payments | length"',
  ]);
  verb(payments, 'summary', 'Per-currency roll-up of payments', PAYMENTS.summary, () => import('./summary.js'), 'run', [
    'svc payments summary',
    'svc payments summary --since 2026-11-01 --json',
  ]);
}
