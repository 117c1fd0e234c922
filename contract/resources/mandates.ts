import { z } from 'zod';
import { IsoTimestamp, MinorUnits, NOT_BLANK, WalletCurrency } from '../common.js';
import { PHONE_DESCRIPTION, PhoneNumber } from '../phone.js';

const MandateRail = z.enum(['card', 'wallet']);
/** pending (waiting for the customer's approval) → active → revoked. docs/spec-gaps.md. */
export const MandateStatus = z.enum(['pending', 'active', 'revoked']);

export const CreateMandate = z
  .strictObject({
    rail: MandateRail,
    customer_ref: z.string().trim().min(1, 'must not be empty').max(255).meta({ ...NOT_BLANK, description: "The merchant's own customer id, echoed back (trimmed)" }),
    currency: WalletCurrency.meta({ description: 'Card rail: USD only. Wallet rail: USD or LRD' }),
    max_amount_cents: MinorUnits.meta({ description: 'Per-charge cap, minor units' }),
    customer_email: z.string().min(1).max(254).optional().meta({ description: 'For card receipts; stored and echoed as sent (no address format is checked: the spec sets none)' }),
    customer_phone: PhoneNumber.optional().meta({
      description: `Wallet rail only (emulator addition): the customer's wallet phone. A test mandate binds to that test user at once (422 when no user has it); a live one can be approved only from that phone. ${PHONE_DESCRIPTION}`,
    }),
  })
  // The rail's rules, checked here (they need nothing but the body) and stated to the document
  // as the two shapes a body may take.
  .superRefine((m, ctx) => {
    if (m.rail === 'card' && m.currency !== 'USD') ctx.addIssue({ code: 'custom', path: ['currency'], message: 'the card rail takes USD only' });
    if (m.rail === 'card' && m.customer_phone !== undefined) ctx.addIssue({ code: 'custom', path: ['customer_phone'], message: 'is for the wallet rail only' });
  })
  .meta({
    id: 'CreateMandate',
    anyOf: [
      { title: 'Wallet rail', properties: { rail: { const: 'wallet' } } },
      { title: 'Card rail: USD, no customer_phone', properties: { rail: { const: 'card' }, currency: { const: 'USD' }, customer_phone: false } },
    ],
  });

const SavedCard = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.int(),
  exp_year: z.int(),
});

export const Mandate = z
  .object({
    id: z.string(),
    rail: MandateRail,
    status: MandateStatus,
    customer_ref: z.string(),
    currency: WalletCurrency,
    max_amount_cents: z.int(),
    customer_email: z.string().nullable(),
    customer_phone: z.string().nullable().meta({ description: 'Wallet rail: the phone the mandate is for, or that approved it' }),
    card: SavedCard.nullable().meta({ description: 'Card rail: the card saved at approval' }),
    environment: z.enum(['test', 'live']),
    approval_url: z.string(),
    created_at: IsoTimestamp,
    activated_at: IsoTimestamp.nullable(),
    revoked_at: IsoTimestamp.nullable(),
  })
  .meta({ id: 'Mandate' });

export const CreatedMandate = z
  .object({
    mandate: Mandate,
    approval_url: z.string(),
    setup_intent_client_secret: z.string().optional().meta({ description: 'Card rail only' }),
  })
  .meta({ id: 'CreatedMandate' });

export const MandateIdParams = z.object({ id: z.string().min(1) });

/**
 * The card the customer types on the approval page (or the CLI sends through the control API).
 * The checks that need only the card are stated here for the document; the Luhn checksum and
 * the expiry against the clock are the domain's (resources/mandates/domain.ts checkCard), the
 * checksum stated to the document as the extension `x-luhn`.
 */
export const CardDetails = z.strictObject({
  number: z
    .string()
    .min(1)
    .max(32)
    .meta({
      description: '12 to 19 digits (spaces and dashes ignored) that pass the Luhn checksum (`x-luhn`); 4242 4242 4242 4242 succeeds, the decline cards are listed on the approval page',
      pattern: '^[\\s-]*([0-9][\\s-]*){12,19}$',
      'x-luhn': true,
    }),
  exp_month: z.int().min(1, 'must be 1 to 12').max(12, 'must be 1 to 12'),
  exp_year: z
    .int()
    .meta({ description: 'Four digits (2000-2100) or two (00-99 means 20xx); the card must not have expired by the emulator clock', anyOf: [{ minimum: 0, maximum: 99 }, { minimum: 2000, maximum: 2100 }] }),
  cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits').max(8),
});

export const WalletApproval = z.strictObject({
  phone: PhoneNumber.meta({ description: `The customer's wallet phone (the mandate's customer_phone, when it has one). ${PHONE_DESCRIPTION}` }),
  pin: z.string().min(1).max(12),
});

export type CreateMandate = z.infer<typeof CreateMandate>;
export type MandatePublic = z.infer<typeof Mandate>;
export type CardDetails = z.infer<typeof CardDetails>;
