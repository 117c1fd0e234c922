import { z } from 'zod';
import { IsoTimestamp, PaymentMethod } from '../common.js';

export const PaymentStatus = z.enum(['pending', 'completed', 'failed']);

export const Payment = z
  .object({
    id: z.string(),
    amount: z.int(),
    currency: z.string(),
    status: PaymentStatus,
    payment_method: PaymentMethod,
    environment: z.enum(['test', 'live']),
    mandate_id: z.string().nullable(),
    payment_link_id: z.string().nullable(),
    idempotency_key: z.string(),
    created_at: IsoTimestamp,
  })
  .meta({ id: 'Payment' });

export const ListPaymentsQuery = z
  .strictObject({
    status: PaymentStatus.optional(),
    before: IsoTimestamp.optional().meta({ description: 'Rows created strictly before this time (pass next_before here)' }),
    limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: 'Page size, max 100' }),
  })
  .meta({ id: 'ListPaymentsQuery' });

export const PaymentList = z.object({
  payments: z.array(Payment),
  next_before: IsoTimestamp.nullable().meta({ description: "The last row's created_at on every non-empty page (pass it as before); null on an empty page, which ends paging" }),
});

export const SummaryQuery = z.strictObject({
  since: z
    .union([IsoTimestamp, z.iso.date()])
    .optional()
    .meta({ description: 'ISO-8601 timestamp with offset, or a date (midnight UTC); payments created at or after it' }),
});

export const CurrencySummary = z.object({
  currency: z.string(),
  completed_count: z.int(),
  completed_amount: z.int(),
  failed_count: z.int(),
  pending_count: z.int(),
  total_count: z.int(),
});
export const PaymentSummary = z.object({ summary: z.array(CurrencySummary), since: IsoTimestamp.nullable() });

export const PaymentIdParams = z.object({ id: z.string().min(1) });

export type Payment = z.infer<typeof Payment>;
