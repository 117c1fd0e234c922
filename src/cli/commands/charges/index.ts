import type { Command } from 'commander';
import { choiceFlag, intFlag } from '../../parse.js';
import { examples, lazy, moneyOptions } from '../../options.js';

export function register(charges: Command): void {
  examples(
    moneyOptions(charges.command('create').description('Charge a mandate; the payment comes back with its status'))
      .requiredOption('--mandate <id>', 'mandate id')
      .requiredOption('--amount <minor>', 'minor units, at most the mandate cap', intFlag(1, 100_000_000_000))
      .requiredOption('--currency <code>', "the mandate's currency")
      .option('--outcome <outcome>', 'test mandates only: force completed or failed', choiceFlag(['completed', 'failed'] as const))
      .option('--fail-on-failed', 'exit 1 when the charge failed (declined, insufficient funds)')
      .addHelpText('after', '\nThe idempotency key (--idempotency-key, or a new UUID) is sent both as the X-Idempotency-Key\nheader and as the body\'s idempotency_key (your billing-cycle key).')
      .action(lazy(() => import('./create.js'))),
    ['svc charges create --mandate mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --amount 1500 --currency USD', 'svc charges create --mandate mdt_8Hq2Lw4Zp9Xc3Vb6Nm1K --amount 1500 --currency USD --idempotency-key cycle-2026-11 --fail-on-failed'],
  );
}
