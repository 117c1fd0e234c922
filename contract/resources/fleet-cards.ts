import { z } from 'zod';
import { Environment, IsoTimestamp, MinorUnits, WalletCurrency } from '../common.js';
import { redemptionRequestFields, redemptionTransactionHead, redemptionTransactionTail } from './redemptions.js';

// Fleet cards: prepaid cards a merchant (a fuel station chain) issues to fleet operators,
// limited to categories and to a spend limit per period. The dashboard issues them; the API
// only redeems.

export const SpendPeriod = z.enum(['daily', 'weekly', 'monthly']);
export const FleetCardStatus = z.enum(['active', 'inactive']);
/** Compared exactly (case-sensitive) with the card's allowed categories. */
const Category = z.string().min(1).max(64);

export const RedeemFleetCard = z
  .strictObject({
    fleet_card_id: z.string().min(1),
    category: Category.meta({ description: 'Must be one the card allows (exact, case-sensitive match)' }),
    amount_cents: MinorUnits,
    ...redemptionRequestFields('Ignored when the key is station-scoped (the key stamps its own location)'),
  })
  .meta({ id: 'RedeemFleetCard' });

const FleetCardTransaction = z
  .object({
    ...redemptionTransactionHead,
    fleet_card_id: z.string(),
    category: z.string(),
    amount_cents: z.int(),
    ...redemptionTransactionTail,
  })
  .meta({ id: 'FleetCardTransaction' });

const FleetCardState = z
  .object({
    id: z.string(),
    status: FleetCardStatus,
    balance: z.int(),
    currency: WalletCurrency,
    spend_limit: z.int(),
    spend_period: SpendPeriod,
    period_start: IsoTimestamp.meta({ description: 'Start of the current spend period (UTC; weeks start on Monday)' }),
    period_spent: z.int().meta({ description: 'Redeemed in the current period, this redemption included' }),
  })
  .meta({ id: 'FleetCardState' });

export const FleetCardRedemption = z.object({ transaction: FleetCardTransaction, card: FleetCardState }).meta({ id: 'FleetCardRedemption' });

/** Control API: issue a card. */
export const IssueFleetCard = z.strictObject({
  merchant_id: z.string().min(1),
  environment: Environment,
  currency: WalletCurrency,
  allowed_categories: z
    .array(Category)
    .min(1)
    .refine((c) => new Set(c).size === c.length, 'must not repeat a category'),
  spend_limit: z.int().min(0).max(100_000_000_000),
  spend_period: SpendPeriod,
  balance: z.int().min(0).max(100_000_000_000).default(0),
  status: FleetCardStatus.default('active'),
});

export const SetFleetCardStatus = z.strictObject({ status: FleetCardStatus });
export const TopUpFleetCard = z.strictObject({ amount: MinorUnits });
export const FleetCardQuery = z.strictObject({ merchant_id: z.string().min(1), environment: Environment.optional() });

export type RedeemFleetCard = z.infer<typeof RedeemFleetCard>;
export type FleetCardRedemption = z.infer<typeof FleetCardRedemption>;
export type IssueFleetCard = z.infer<typeof IssueFleetCard>;
