import { z } from 'zod';
import { Environment, NOT_BLANK, WalletCurrency } from '../common.js';

// Payees are set up on the dashboard (the emulator's control API), never with an API key:
// the spec forbids authorizing payout destinations or raising caps from the merchant API.

/** Caps are minor units; 0 is allowed (it blocks payouts without revoking the payee). */
const Cap = z.int().min(0).max(100_000_000_000);
const OwnerPin = z.string().regex(/^\d{4,6}$/, 'must be the 4 to 6 digit owner PIN');

export const PayeeStatus = z.enum(['pending_approval', 'approved', 'revoked']);

export const Payee = z
  .object({
    id: z.string(),
    merchant_id: z.string(),
    environment: Environment,
    name: z.string(),
    currency: WalletCurrency,
    per_payout_cap: z.int(),
    daily_cap: z.int(),
    status: PayeeStatus,
    created_at: z.string(),
  })
  .meta({ id: 'Payee' });

/** `per_payout_cap` may not exceed `daily_cap`: the message the domain gives when one of them is stored. */
const capsProblem = (perPayout: number, daily: number) => (perPayout > daily ? `must not exceed daily_cap (${daily})` : null);
/** The document's statement of it (an extension: JSON Schema cannot compare two fields). */
const AT_MOST_DAILY = { 'x-at-most-field': 'daily_cap' };

export const AddPayee = z
  .strictObject({
    merchant_id: z.string().min(1),
    environment: Environment,
    name: z.string().trim().min(1).max(200).meta(NOT_BLANK),
    currency: WalletCurrency,
    per_payout_cap: Cap.meta({ description: 'At most daily_cap (`x-at-most-field`)', ...AT_MOST_DAILY }),
    daily_cap: Cap,
  })
  .superRefine((b, ctx) => {
    const problem = capsProblem(b.per_payout_cap, b.daily_cap);
    if (problem) ctx.addIssue({ code: 'custom', path: ['per_payout_cap'], message: problem });
  });

export const ApprovePayee = z.strictObject({ pin: OwnerPin });

export const SetPayeeCaps = z
  .strictObject({
    per_payout_cap: Cap.optional().meta({ description: "At most daily_cap, the one sent or else the payee's (`x-at-most-field`)", ...AT_MOST_DAILY }),
    daily_cap: Cap.optional(),
    /** Needed only when a cap goes up (spec: raising caps needs the owner's PIN). */
    pin: OwnerPin.optional().meta({ description: "The owner's PIN: needed when a cap goes up, ignored otherwise" }),
  })
  .refine((b) => b.per_payout_cap !== undefined || b.daily_cap !== undefined, 'give per_payout_cap, daily_cap or both')
  .superRefine((b, ctx) => {
    const problem = b.per_payout_cap !== undefined && b.daily_cap !== undefined ? capsProblem(b.per_payout_cap, b.daily_cap) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['per_payout_cap'], message: problem });
  })
  .meta({ anyOf: [{ required: ['per_payout_cap'] }, { required: ['daily_cap'] }] });

export const PayeeListQuery = z.strictObject({ merchant_id: z.string().min(1), environment: Environment.optional() });

export type Payee = z.infer<typeof Payee>;
export type AddPayee = z.infer<typeof AddPayee>;
export type SetPayeeCaps = z.infer<typeof SetPayeeCaps>;
