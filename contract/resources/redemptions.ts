import { z } from 'zod';
import { Environment, IsoTimestamp, WalletCurrency } from '../common.js';
import { bodyIdempotencyKey } from '../idempotency-key.js';

// What every point-of-sale redemption (gift cards, fleet cards) has in common: the request's
// trailing fields, the transaction's common fields, and the rule that the body's
// idempotency_key is the replay key. Each card type keeps its own id, amount and checks.

/** Any Unicode string of 1–255 characters (contract/idempotency.ts); a header key counts bytes instead. */
const BodyIdempotencyKey = bodyIdempotencyKey().meta({
  description: 'Body idempotency key (not a header): any Unicode string of 1-255 characters (code points), compared exactly; a retry with the same key and body returns the original result',
});

/** The request fields after the card id and amount; `location_id` is described per card type. */
export function redemptionRequestFields(locationDescription: string) {
  return {
    reference: z.string().min(1).max(255).optional(),
    idempotency_key: BodyIdempotencyKey,
    location_id: z.string().min(1).max(255).optional().meta({ description: locationDescription }),
  };
}

/** The transaction's leading fields (before the card id). */
export const redemptionTransactionHead = {
  id: z.string(),
  type: z.literal('redemption'),
  status: z.literal('completed'),
};

/** The transaction's trailing fields (after the amount). */
export const redemptionTransactionTail = {
  currency: WalletCurrency,
  reference: z.string().nullable(),
  location_id: z.string().nullable(),
  idempotency_key: z.string(),
  environment: Environment,
  created_at: IsoTimestamp,
};
