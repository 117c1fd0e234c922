import type { Command } from 'commander';
import { choiceFlag, intFlag } from '../../parse.js';
import { apiOptions, examples, lazy, writeOptions } from '../../options.js';

export function register(links: Command): void {
  examples(
    writeOptions(links.command('create').description('Create a payment link'))
      .requiredOption('--title <text>', 'what the payer sees')
      .option('--amount <minor>', 'amount in minor units (1200 = 12.00); omit for pay-any-amount', intFlag(1, 100_000_000_000))
      .option('--currency <code>', 'ISO-4217 code (default USD)')
      .option('--description <text>', 'longer description')
      .option('--methods <list>', 'accepted methods, comma-separated: card,momo,wallet')
      .option('--expires-at <iso>', 'ISO-8601 expiry time')
      .option('--redirect-url <url>', 'where checkout returns the payer')
      .option('--metadata <json>', 'a JSON object, echoed on the webhook')
      .option('--sub-merchant <id>', "settle to this sub-merchant's wallet")
      .action(lazy(() => import('./create.js'))),
    ['svc links create --title "Coffee beans" --amount 1200 --currency USD', 'svc links create --title Donation --methods momo,wallet --json'],
  );
  examples(
    apiOptions(links.command('get').description('Read a payment link by id (pl_…) or link code (PL-…)'))
      .argument('<id>', 'link id or link code')
      .action(lazy(() => import('./get.js'))),
    ['svc links get pl_3kF9xQ2mTz8LwR4vNb7Y', 'svc links get PL-7K2M9QXA --json'],
  );
  examples(
    writeOptions(links.command('simulate').description('Test keys only: pay a link in the sandbox and fire its webhook'))
      .argument('<id>', 'link id')
      .option('--outcome <outcome>', 'completed or failed (default completed)', choiceFlag(['completed', 'failed'] as const))
      .option('--method <method>', "card, momo or wallet (default: the link's first method)", choiceFlag(['card', 'momo', 'wallet'] as const))
      .option('--amount <minor>', 'for a pay-any-amount link', intFlag(1, 100_000_000_000))
      .option('--fail-on-failed', 'exit 1 when the payment failed')
      .action(lazy(() => import('./simulate.js'))),
    ['svc links simulate pl_3kF9xQ2mTz8LwR4vNb7Y', 'svc links simulate pl_3kF9xQ2mTz8LwR4vNb7Y --outcome failed --method momo --json'],
  );
}
