import { z } from 'zod';
import { Currency, IsoTimestamp, Metadata, MinorUnits, NOT_BLANK, PaymentMethod } from '../common.js';
import { REDIRECT_URL_DESCRIPTION, REDIRECT_URL_PATTERN } from '../urls.js';

export const METADATA_MAX_CHARS = 4000;

/**
 * The OpenAPI extension that states the metadata rule, which JSON Schema cannot: the most
 * characters the value may take as compact JSON (`JSON.stringify`, counted in UTF-16 code units).
 */
export const MAX_JSON_LENGTH_EXTENSION = 'x-max-json-length';

export const CreatePaymentLink = z
  .strictObject({
    title: z.string().trim().min(1, 'must not be empty').max(200).meta(NOT_BLANK),
    description: z.string().max(2000).optional(),
    amount: MinorUnits.optional().meta({ description: 'Omit for a pay-any-amount link' }),
    currency: Currency.optional().meta({ description: 'Defaults to USD' }),
    accepted_methods: z
      .array(PaymentMethod)
      .min(1)
      .refine((m) => new Set(m).size === m.length, 'must not repeat a method')
      .meta({ uniqueItems: true, description: 'Each method at most once; defaults to every method' })
      .optional(),
    expires_at: IsoTimestamp.optional().meta({ description: "Must be later than the server's clock when the link is created (422 otherwise)" }),
    // The check is checkRedirectUrl (it depends on the key's environment); the pattern states it.
    redirect_url: z.string().max(2048).optional().meta({ pattern: REDIRECT_URL_PATTERN, description: REDIRECT_URL_DESCRIPTION }),
    metadata: Metadata.refine((m) => JSON.stringify(m).length <= METADATA_MAX_CHARS, {
      message: `must serialize to ${METADATA_MAX_CHARS} characters or fewer`,
    })
      .meta({
        description: `Any JSON object, stored and echoed (also on the webhook, as data.link.metadata). Its compact serialization (JSON.stringify, no spaces) must be at most ${METADATA_MAX_CHARS} characters, counted in UTF-16 code units: \`${MAX_JSON_LENGTH_EXTENSION}\``,
        [MAX_JSON_LENGTH_EXTENSION]: METADATA_MAX_CHARS,
      })
      .optional(),
    sub_merchant_id: z.string().min(1).optional().meta({ description: "One of this merchant's sub-merchants in the key's environment (422 otherwise)" }),
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

export const LinkIdParams = z.object({ id: z.string().min(1) });
export const LinkCodeParams = z.object({ code: z.string().min(1) });

export type CreatePaymentLink = z.infer<typeof CreatePaymentLink>;
export type PaymentLink = z.infer<typeof PaymentLink>;
