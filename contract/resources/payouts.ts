import { z } from 'zod';
import { Currency, Environment, IsoTimestamp, MinorUnits } from '../common.js';

export const PayoutStatus = z.enum(['processing', 'completed', 'failed']);

export const CreatePayout = z
  .strictObject({
    payee_id: z.string().min(1).meta({ description: "An approved payee from the dashboard's payee list" }),
    amount_cents: MinorUnits,
    currency: Currency.meta({ description: "Must equal the payee's currency" }),
    external_ref: z.string().min(1).max(255).optional().meta({ description: "The merchant's correlation id, echoed back" }),
  })
  .meta({ id: 'CreatePayout' });

export const Payout = z
  .object({
    id: z.string(),
    payee_id: z.string(),
    amount_cents: z.int(),
    currency: z.string(),
    status: PayoutStatus,
    external_ref: z.string().nullable(),
    initiated_at: IsoTimestamp,
    resolved_at: IsoTimestamp.nullable().meta({ description: 'When the provider answered; null while processing' }),
    environment: Environment,
  })
  .meta({ id: 'Payout' });

export const ListPayoutsQuery = z
  .strictObject({
    limit: z.coerce.number<string | number>().int().min(1).max(100).default(20).meta({ description: 'Page size, max 100' }),
    offset: z.coerce.number<string | number>().int().min(0).default(0).meta({ description: 'Rows to skip from the newest' }),
  })
  .meta({ id: 'ListPayoutsQuery' });

export const PayoutList = z
  .object({
    payouts: z.array(Payout).meta({ description: 'Newest first' }),
    total: z.int().meta({ description: "Payouts of the key's environment in all" }),
    limit: z.int(),
    offset: z.int(),
  })
  .meta({ id: 'PayoutList' });

export const PayoutIdParams = z.object({ id: z.string().min(1) });

/** Control API: the outcomes the provider gives the next payouts, in order. */
export const QueuePayoutOutcomes = z.strictObject({
  outcomes: z.array(z.enum(['completed', 'failed'])).max(1000),
});

export type CreatePayout = z.infer<typeof CreatePayout>;
export type Payout = z.infer<typeof Payout>;
