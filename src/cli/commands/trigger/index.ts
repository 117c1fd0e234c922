import type { Command } from 'commander';
import { choiceFlag, intFlag } from '../../parse.js';
import { examples, lazy, writeOptions } from '../../options.js';

export const TRIGGERS = ['payment.completed', 'payment.failed'] as const;

export function register(trigger: Command): void {
  examples(
    writeOptions(trigger)
      .description('Fire a test event through the public API: creates a payment link and simulates a payment on it')
      .argument('<event>', TRIGGERS.join(' | '))
      .option('--amount <minor>', 'amount in minor units', intFlag(1, 100_000_000_000), 1200)
      .option('--currency <code>', 'currency', 'USD')
      .option('--method <method>', 'card, momo or wallet', choiceFlag(['card', 'momo', 'wallet'] as const), 'card')
      .option('--metadata <json>', 'link metadata (echoed on the webhook as data.link.metadata)')
      .addHelpText('after', '\nTest keys only: the sandbox simulate route does not exist for live keys.')
      .action(lazy(() => import('./run.js'))),
    ['svc trigger payment.completed', 'svc trigger payment.failed --amount 500 --method momo --json'],
  );
}
