import type { Command } from 'commander';
import { choiceFlag, intFlag } from '../../parse.js';
import { apiOptions, examples, lazy } from '../../options.js';

export function register(payments: Command): void {
  examples(
    apiOptions(payments.command('get').description('Read a payment (link payment or mandate charge)'))
      .argument('<id>', 'payment id')
      .option('--fail-on-failed', 'exit 1 when the payment failed')
      .action(lazy(() => import('./get.js'))),
    ['svc payments get pay_7Mn3Bv8Cx2Za6Sd1Fg5H', 'svc payments get pay_7Mn3Bv8Cx2Za6Sd1Fg5H --json --fail-on-failed'],
  );
  examples(
    apiOptions(payments.command('list').description("List payments of the key's environment, newest first"))
      .option('--status <status>', 'pending, completed or failed', choiceFlag(['pending', 'completed', 'failed'] as const))
      .option('--before <iso>', 'rows created before this time (a next_before cursor)')
      .option('--limit <n>', 'page size, 1 to 100 (default 50)', intFlag(1, 100))
      .option('--all', 'follow next_before through every page (progress on a terminal)')
      .action(lazy(() => import('./list.js'))),
    ['svc payments list', 'svc payments list --status failed --limit 10', 'svc payments list --all --json | jq ".payments | length"'],
  );
  examples(
    apiOptions(payments.command('summary').description('Per-currency roll-up of payments'))
      .option('--since <when>', 'ISO-8601 timestamp or date (2026-11-01)')
      .action(lazy(() => import('./summary.js'))),
    ['svc payments summary', 'svc payments summary --since 2026-11-01 --json'],
  );
}
