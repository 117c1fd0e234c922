import { z } from 'zod';
import { Environment, MinorUnits, WalletCurrency } from '../common.js';
import { FleetCardStatus, SpendPeriod } from '../resources/fleet-cards.js';
import { Payee } from '../resources/payees.js';
import { PhoneNumber } from '../phone.js';

// What the dashboard and the phone show through the control API: merchants' wallets, service
// users, gift-card wallets and fleet cards, payees, the payout provider and the OTP inbox.
// The requests that already had a home beside their resource (AddPayee, IssueFleetCard, …)
// stay in contract/resources/; schemas.ts names them per route.

const Iso = z.string().meta({ description: 'ISO-8601, microseconds, UTC' });

export const WALLET_ENTRIES_DEFAULT = 20;
const WALLET_ENTRIES_MAX = 10_000;

export const WalletQuery = z.strictObject({
  merchant_id: z.string().min(1),
  environment: Environment.optional(),
  entries: z.coerce
    .number()
    .int()
    .min(0)
    .max(WALLET_ENTRIES_MAX)
    .optional()
    .meta({ description: `Newest ledger entries per wallet (default ${WALLET_ENTRIES_DEFAULT})` }),
});

export const WalletTopUp = z.strictObject({
  merchant_id: z.string().min(1),
  environment: Environment,
  currency: WalletCurrency,
  amount: MinorUnits,
});

export const WalletView = z.object({
  merchant_id: z.string(),
  wallets: z.array(
    z.object({
      id: z.string(),
      environment: Environment,
      currency: z.string(),
      balance: z.int(),
      entry_count: z.int().min(0),
      entry_sum: z.int().meta({ description: 'The sum of every entry: equals balance' }),
      entries: z
        .array(z.object({ id: z.string(), amount: z.int(), reason: z.string(), ref: z.string().nullable(), created_at: Iso }))
        .meta({ description: 'The newest entries, newest first' }),
    }),
  ),
});

export const WalletBalance = z.object({ id: z.string(), environment: Environment, currency: z.string(), balance: z.int() });

export const UserTopUp = z.strictObject({ environment: Environment, currency: WalletCurrency, amount: MinorUnits });

export const ControlUser = z
  .object({
    id: z.string(),
    name: z.string(),
    phone: z.string(),
    business: z.boolean(),
    wallets: z.partialRecord(Environment, z.partialRecord(WalletCurrency, z.int())).meta({ description: 'Balance per environment and currency' }),
    entries: z.array(
      z.object({
        id: z.string(),
        environment: Environment,
        currency: z.string(),
        amount: z.int().meta({ description: 'Positive for a credit, negative for a debit' }),
        reason: z.string(),
        ref: z.string().nullable(),
        created_at: Iso,
      }),
    ),
  })
  .meta({ id: 'ControlUser' });

export const UserList = z.object({ users: z.array(ControlUser) });

export const PhoneParams = z.object({
  phone: z.string().min(1).meta({ description: 'E.164 (+231770000201) or as typed locally (0770000201); one that names no user is 404' }),
});

/** The OTP inbox reads any phone, so the phone must be one (422 otherwise). */
export const OtpPhoneParams = z.object({ phone: PhoneNumber });

/** The signed ledger of one card: amounts sum to the balance (a redemption is negative). */
export const CardLedger = z.object({
  id: z.string(),
  currency: WalletCurrency,
  balance: z.int(),
  transactions: z.array(z.object({ id: z.string(), type: z.string().meta({ description: 'issue, load, top_up or redemption' }), amount: z.int(), created_at: Iso })),
});

export const GiftCardWallet = z
  .object({
    id: z.string(),
    merchant_id: z.string(),
    environment: Environment,
    currency: WalletCurrency,
    balance: z.int(),
    holder_phone: z.string().optional(),
  })
  .meta({ id: 'GiftCardWallet' });

export const GiftCardWalletList = z.object({ gift_card_wallets: z.array(GiftCardWallet) });

export const FleetCard = z
  .object({
    id: z.string(),
    merchant_id: z.string(),
    environment: Environment,
    status: FleetCardStatus,
    allowed_categories: z.array(z.string()),
    balance: z.int(),
    spend_limit: z.int(),
    spend_period: SpendPeriod,
    currency: WalletCurrency,
  })
  .meta({ id: 'FleetCard' });

export const FleetCardList = z.object({ fleet_cards: z.array(FleetCard) });

export const PayeeList = z.object({ payees: z.array(Payee) });

const PayoutOutcome = z.enum(['completed', 'failed']);
export const PayoutProvider = z.object({
  resolve_ms: z.int().min(0).meta({ description: 'How long the provider takes to answer (--payout-delay)' }),
  default_outcome: PayoutOutcome.meta({ description: 'Its answer when nothing is queued (--payout-outcome)' }),
  queued_outcomes: z.array(PayoutOutcome).meta({ description: 'The answers for the next payouts accepted, in order' }),
});

export const OtpInbox = z.object({
  messages: z
    .array(z.object({ phone: z.string(), code: z.string(), purpose: z.literal('sub_merchant'), sent_at: Iso, expires_at: Iso }))
    .meta({ description: 'Newest first' }),
});

export const IdParams = z.object({ id: z.string().min(1) });
