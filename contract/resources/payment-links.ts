import { z } from 'zod';
import { Currency, IsoTimestamp, Metadata, MinorUnits, PaymentMethod } from '../common.js';

export const METADATA_MAX_CHARS = 4000;

export const CreatePaymentLink = z
  .strictObject({
    title: z.string().trim().min(1, 'must not be empty').max(200),
    description: z.string().max(2000).optional(),
    amount: MinorUnits.optional().meta({ description: 'Omit for a pay-any-amount link' }),
    currency: Currency.optional().meta({ description: 'Defaults to USD' }),
    accepted_methods: z
      .array(PaymentMethod)
      .min(1)
      .refine((m) => new Set(m).size === m.length, 'must not repeat a method')
      .optional(),
    expires_at: IsoTimestamp.optional(),
    redirect_url: z.string().max(2048).optional(),
    metadata: Metadata.refine((m) => JSON.stringify(m).length <= METADATA_MAX_CHARS, {
      message: `must serialize to ${METADATA_MAX_CHARS} characters or fewer`,
    }).optional(),
    sub_merchant_id: z.string().min(1).optional(),
  })
  .meta({ id: 'CreatePaymentLink' });

export const LinkStatus = z.enum(['pending', 'completed', 'expired']);

export const PaymentLink = z
  .object({
    id: z.string(),
    link_code: z.string().regex(/^PL-[A-Z0-9]{8}$/),
    title: z.string(),
    description: z.string().nullable(),
    amount: z.int().nullable(),
    currency: z.string(),
    accepted_methods: z.array(PaymentMethod),
    status: LinkStatus,
    total_collected: z.int(),
    payment_count: z.int(),
    expires_at: IsoTimestamp.nullable(),
    redirect_url: z.string().nullable(),
    metadata: Metadata.nullable(),
    sub_merchant_id: z.string().nullable(),
    environment: z.enum(['test', 'live']),
    created_at: IsoTimestamp,
  })
  .meta({ id: 'PaymentLink' });

export const SimulatePayment = z
  .strictObject({
    method: PaymentMethod.optional().meta({ description: "Defaults to the link's first accepted method" }),
    outcome: z.enum(['completed', 'failed']).optional().meta({ description: 'Defaults to completed' }),
    amount: MinorUnits.optional().meta({ description: 'Required for a pay-any-amount link; refused for a fixed-amount link' }),
  })
  .meta({ id: 'SimulatePayment' });

export const LinkIdParams = z.object({ id: z.string() });
export const LinkCodeParams = z.object({ code: z.string() });

export type CreatePaymentLink = z.infer<typeof CreatePaymentLink>;
export type PaymentLink = z.infer<typeof PaymentLink>;
