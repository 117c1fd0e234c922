import type { Command } from 'commander';
import { verb } from '../../options.js';
import { CARDS } from './flags.js';

/** The redeem verb of `gift-cards` or `fleet-cards` (commands.ts loads this module for both). */
export function register(noun: Command): void {
  if (noun.name() === 'gift-cards') {
    verb(
      noun,
      'redeem',
      "Redeem from a customer's gift-card wallet (what a POS QR encodes)",
      CARDS.gift,
      () => import('./redeem.js'),
      'gift',
      ['svc gift-cards redeem --wallet mw_test_ada_usd --amount 500 --reference order-9'],
      "\nThe idempotency key (--idempotency-key, or a new UUID) is the body's idempotency_key; a retry\nwith it returns the original result.",
    );
  } else {
    verb(noun, 'redeem', 'Redeem a fleet card for an allowed category', CARDS.fleet, () => import('./redeem.js'), 'fleet', [
      'svc fleet-cards redeem --card fc_test_truck_01 --category fuel --amount 4000',
    ]);
  }
}
