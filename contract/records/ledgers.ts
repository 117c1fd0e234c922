import { z } from 'zod';
import { Count, Env, Flag, Id, SafeInt, Stamp, Text, WalletCurrency } from './fields.js';
import { PayeeStatus } from '../resources/payees.js';
import { FleetCardStatus } from '../resources/fleet-cards.js';
import { PayoutStatus } from '../resources/payouts.js';

// The stored records that hold money: wallets and their entries, service users' wallets,
// gift-card wallets, fleet cards, payees and payouts. These are the emulator's record types too
// (emulator/store/collection.ts RecordOf): one writing of each shape.

const Currency = Text.regex(/^[A-Z]{3}$/, 'expected a three-letter currency code');

export const WalletRecord = z.object({ id: Id, merchant_id: Id, environment: Env, currency: Currency, balance: Count });

export const WalletEntryRecord = z.object({
  id: Id,
  wallet_id: Id,
  /** Positive for a credit, negative for a debit. */
  amount: SafeInt,
  /** What moved the money: payment, payout, payout_reversal, payroll_line, top_up, fixture. */
  reason: Text,
  /** The id of the record that caused it (payment, payout, payroll line). */
  ref: Text.nullable(),
  created_at: Stamp,
});

export const UserRecord = z.object({
  id: Id,
  name: Text,
  phone: Text,
  pin_hash: Text,
  wallets: z.object({ test: z.partialRecord(WalletCurrency, Count), live: z.partialRecord(WalletCurrency, Count) }),
  /** Set once the phone completed a sub-merchant sign-up ("the phone's account becomes a business account"). */
  business: Flag.optional(),
});

export const UserWalletEntryRecord = z.object({
  id: Id,
  user_id: Id,
  environment: Env,
  currency: Currency,
  /** Positive for a credit, negative for a debit. */
  amount: SafeInt,
  /** What moved the money: mandate_charge, payroll_line. */
  reason: Text,
  ref: Text.nullable(),
  created_at: Stamp,
});

/** What a card ledger's every transaction carries (emulator/resources/redemptions/domain.ts). */
const CardTransactionFields = {
  currency: WalletCurrency,
  reference: Text.nullable(),
  location_id: Text.nullable(),
  idempotency_key: Text.nullable(),
  environment: Env,
  created_at: Stamp,
};

export const GiftCardWalletRecord = z.object({ id: Id, merchant_id: Id, environment: Env, currency: WalletCurrency, balance: Count, holder_phone: Text.optional() });

export const GiftCardTransactionRecord = z.object({
  id: Id,
  wallet_id: Id,
  type: z.enum(['issue', 'load', 'redemption']),
  /** Minor units; positive for issue and load, the amount taken for a redemption. */
  amount: Count,
  ...CardTransactionFields,
});

export const FleetCardRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  status: FleetCardStatus,
  allowed_categories: z.array(Text),
  balance: Count,
  spend_limit: Count,
  spend_period: z.enum(['daily', 'weekly', 'monthly']),
  currency: WalletCurrency,
});

export const FleetCardTransactionRecord = z.object({
  id: Id,
  card_id: Id,
  /** `issue`: the balance a card was issued (or seeded) with, so balance == issues + top-ups − redemptions. */
  type: z.enum(['redemption', 'top_up', 'issue']),
  category: Text.nullable(),
  amount: Count,
  /** Emulator-clock time of the transaction, for period sums. */
  at_ms: Count,
  ...CardTransactionFields,
});

export const PayeeRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  name: Text,
  currency: WalletCurrency,
  per_payout_cap: Count,
  daily_cap: Count,
  status: PayeeStatus,
  created_at: Stamp,
});

const Outcome = z.enum(['completed', 'failed']);

export const PayoutRecord = z.object({
  id: Id,
  merchant_id: Id,
  environment: Env,
  payee_id: Id,
  amount_cents: Count,
  currency: Currency,
  status: PayoutStatus,
  external_ref: Text.nullable(),
  initiated_at: Stamp,
  resolved_at: Stamp.nullable(),
  /** Emulator-clock time of acceptance: the daily cap's UTC day (a stamp may run a few µs ahead). */
  initiated_at_ms: Count,
  /** What the emulated provider will answer, and when (emulator clock, ms). Never exposed. */
  provider_outcome: Outcome,
  resolves_at_ms: Count,
});

/** The emulated provider's queued answers (set from the dashboard). */
export const PayoutProviderRecord = z.object({ id: Id, outcomes: z.array(Outcome) });
