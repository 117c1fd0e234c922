import { z } from 'zod';
import { Count, Env, Flag, Id, Stamp, Text, WalletCurrency } from './fields.js';
import { SCOPES } from '../scopes.js';
import { PaymentMethod } from '../common.js';
import { PaymentStatus } from '../resources/payments.js';
import { MandateStatus } from '../resources/mandates.js';
import { PayrollLine, PayrollRunStatus } from '../resources/payroll.js';

// The stored records of merchants and what they sell: merchants (and sub-merchants), API keys,
// payment links, payments, mandates, payroll runs, and what the checkout pages remember of a
// payment. These are the emulator's record types too (emulator/store/collection.ts RecordOf).

const Currency = Text.regex(/^[A-Z]{3}$/, 'expected a three-letter currency code');

export const MerchantRecord = z.object({
  id: Id,
  name: Text,
  /** Business accounts may use sub-merchants, payroll and payouts. */
  business: Flag,
  /** scrypt hash of the owner's PIN (payroll approval, payee approval). */
  owner_pin_hash: Text.optional(),
  owner_phone: Text.optional(),
  /** Set on a sub-merchant: the parent's id. */
  parent_id: Id.optional(),
  // A sub-merchant's (emulator/resources/sub-merchants/domain.ts SubMerchantRecord).
  environment: Env.optional(),
  manager_user_id: Id.nullable().optional(),
  created_at: Stamp,
});

export const KeyRecord = z.object({
  id: Id,
  name: Text,
  merchant_id: Id,
  environment: Env,
  // Stored as strings (KeyRecord); each must be a scope this version knows.
  scopes: z.array(Text.refine((s) => (SCOPES as readonly string[]).includes(s), { error: (iss) => `not a scope: ${JSON.stringify(iss.input)}` })),
  revoked: Flag,
  /** sha256 of the full key, hex. The key itself is kept too: the emulator prints seeded keys. */
  key_sha256: Text.regex(/^[0-9a-f]{64}$/, 'expected the sha256 of the key, 64 lowercase hex digits'),
  key: Text,
  /** A station-scoped key stamps this location on fleet-card redemptions. */
  station_location_id: Text.optional(),
});

export const LinkRecord = z.object({
  id: Id,
  link_code: Id,
  merchant_id: Id,
  environment: Env,
  title: Text,
  description: Text.nullable(),
  amount: Count.nullable(),
  currency: Currency,
  accepted_methods: z.array(PaymentMethod),
  expires_at: Stamp.nullable(),
  redirect_url: Text.nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  sub_merchant_id: Id.nullable(),
  /** `completed` once a fixed-amount link is paid; pay-any-amount links stay open. */
  closed: Flag,
  total_collected: Count,
  payment_count: Count,
  created_at: Stamp,
});

export const PaymentRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  amount: Count,
  currency: Currency,
  status: PaymentStatus,
  payment_method: PaymentMethod,
  mandate_id: Id.nullable(),
  payment_link_id: Id.nullable(),
  /** Where the money settles when it is not the merchant itself. */
  sub_merchant_id: Id.nullable(),
  idempotency_key: Text,
  created_at: Stamp,
});

export const MandateRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  rail: z.enum(['card', 'wallet']),
  status: MandateStatus,
  customer_ref: Text,
  currency: WalletCurrency,
  max_amount_cents: Count,
  customer_email: Text.nullable(),
  /** Wallet rail: the phone the merchant asked for (E.164), or the one that approved. */
  customer_phone: Text.nullable(),
  /** Wallet rail: the service user whose wallet charges draw from, once known. */
  user_id: Id.nullable(),
  /** Card rail: the card saved at approval; `outcome` is what charges on it do. */
  card: z
    .object({ brand: Text, last4: Text, exp_month: Count, exp_year: Count, outcome: z.enum(['succeeds', 'declined', 'insufficient_funds']) })
    .nullable(),
  created_at: Stamp,
  activated_at: Stamp.nullable(),
  revoked_at: Stamp.nullable(),
});

export const PayrollRunRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  status: PayrollRunStatus,
  currency: WalletCurrency,
  note: Text.nullable(),
  /** At most 500, so the lines live in the run: one record, written in one step. */
  lines: z.array(PayrollLine.extend({ amount_cents: Count })),
  created_at: Stamp,
  approved_at: Stamp.nullable(),
  completed_at: Stamp.nullable(),
});

/** What the checkout remembers about a payment it made, for the confirmation screen. */
export const CheckoutPaymentRecord = z.object({
  /** The payment's id. */
  id: Id,
  link_id: Id,
  /** "Visa •••• 4242", "+231 ••• 0201": how the payer paid, never the full number. */
  paid_with: Text,
  failure_reason: Text.nullable(),
});
