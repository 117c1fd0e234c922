import { z } from 'zod';
import { Count, Env, Flag, Id, Stamp, Text, WalletCurrency } from './fields.js';
import { SCOPES } from '../scopes.js';
import { PaymentMethod } from '../common.js';
import { PaymentStatus } from '../resources/payments.js';
import { MandateStatus } from '../resources/mandates.js';
import { PayrollLine, PayrollRunStatus } from '../resources/payroll.js';

// The stored records of merchants and what they sell: merchants (and sub-merchants), API keys,
// payment links, payments, mandates, payroll runs, and what the checkout pages remember of a
// payment. Checked against the emulator's record types in emulator/world-records.ts.

const Currency = Text.regex(/^[A-Z]{3}$/, 'expected a three-letter currency code');

export const MerchantRecord = z.object({
  id: Id,
  name: Text,
  business: Flag,
  owner_pin_hash: Text.optional(),
  owner_phone: Text.optional(),
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
  key_sha256: Text.regex(/^[0-9a-f]{64}$/, 'expected the sha256 of the key, 64 lowercase hex digits'),
  key: Text,
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
  customer_phone: Text.nullable(),
  user_id: Id.nullable(),
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
  lines: z.array(PayrollLine.extend({ amount_cents: Count })),
  created_at: Stamp,
  approved_at: Stamp.nullable(),
  completed_at: Stamp.nullable(),
});

/** How a payer paid through the checkout page (never the full number). */
export const CheckoutPaymentRecord = z.object({ id: Id, link_id: Id, paid_with: Text, failure_reason: Text.nullable() });
