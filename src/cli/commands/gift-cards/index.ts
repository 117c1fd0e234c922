import type { Command } from 'commander';
import { verb } from '../../options.js';
import { GIFT_CARDS } from './flags.js';

export function register(giftCards: Command): void {
  verb(
    giftCards,
    'redeem',
    "Redeem from a customer's gift-card wallet (what a POS QR encodes)",
    GIFT_CARDS.redeem,
    () => import('./redeem.js'),
    'run',
    ['svc gift-cards redeem --wallet mw_test_ada_usd --amount 500 --reference order-9'],
    "\nThe idempotency key (--idempotency-key, or a new UUID) is the body's idempotency_key; a retry\nwith it returns the original result.",
  );
}
