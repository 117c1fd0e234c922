import { z } from 'zod';
import { Environment, IsoTimestamp, WalletCurrency } from '../common.js';
import { MAX_KEY_LENGTH, type IdempotencyPolicy } from '../idempotency.js';
import { headerSafeString } from '../header-safe.js';

// What every point-of-sale redemption (gift cards, fleet cards) has in common: the request's
// trailing fields, the transaction's common fields, and the rule that the body's
// idempotency_key is the replay key. Each card type keeps its own id, amount and checks.

/** Same rule as the idempotency header: 1–255 header-safe characters (inner spaces allowed). */
export const BodyIdempotencyKey = headerSafeString(MAX_KEY_LENGTH).meta({ description: 'Body idempotency key (not a header): a retry with the same key and body returns the original result' });

/** The body's idempotency_key is required and replayed on its own; the header is optional. */
export const redemptionIdempotency: IdempotencyPolicy = { header: 'X-Idempotency-Key', required: false, bodyField: 'idempotency_key' };

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
