import { z } from 'zod';
import { Currency, MinorUnits } from '../common.js';
import { bodyIdempotencyKey } from '../idempotency-key.js';

export const CreateCharge = z
  .strictObject({
    mandate_id: z.string().min(1),
    amount_cents: MinorUnits.meta({ description: "At most the mandate's max_amount_cents" }),
    currency: Currency.meta({ description: "Must equal the mandate's currency" }),
    idempotency_key: bodyIdempotencyKey().meta({
      description:
        "The merchant's cycle key, any Unicode string of 1-255 characters (code points): one charge per mandate and key for 24 h from its first use (a retry within them returns the original payment; after them the key charges again)",
    }),
    outcome: z.enum(['completed', 'failed']).optional().meta({ description: 'Test mandates only: forces the result' }),
  })
  .meta({ id: 'CreateCharge' });

export type CreateCharge = z.infer<typeof CreateCharge>;
