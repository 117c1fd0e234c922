import type { Command } from 'commander';
import { intFlag } from '../../parse.js';
import { examples, lazy, moneyOptions } from '../../options.js';

export function register(giftCards: Command): void {
  examples(
    moneyOptions(giftCards.command('redeem').description("Redeem from a customer's gift-card wallet (what a POS QR encodes)"))
      .requiredOption('--wallet <id>', 'merchant_wallet_id, e.g. mw_test_ada_usd')
      .requiredOption('--amount <minor>', "minor units of the wallet's currency", intFlag(1, 100_000_000_000))
      .option('--reference <text>', 'your reference')
      .option('--location <id>', 'location id (reporting only)')
      .addHelpText('after', "\nThe idempotency key (--idempotency-key, or a new UUID) is the body's idempotency_key; a retry\nwith it returns the original result.")
      .action(lazy(() => import('./redeem.js'))),
    ['svc gift-cards redeem --wallet mw_test_ada_usd --amount 500 --reference order-9'],
  );
}
