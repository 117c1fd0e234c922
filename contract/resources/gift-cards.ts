import { z } from 'zod';
import { Environment, MinorUnits, WalletCurrency } from '../common.js';
import { redemptionRequestFields, redemptionTransactionHead, redemptionTransactionTail } from './redemptions.js';

// Gift cards are the customer's per-merchant pockets ("merchant wallets" in the spec, the id a
// POS QR encodes). The dashboard issues and loads them; the API only redeems.

export const RedeemGiftCard = z
  .strictObject({
    merchant_wallet_id: z.string().min(1).meta({ description: "The customer's per-merchant pocket (what a POS QR encodes)" }),
    amount: MinorUnits.meta({ description: "Minor units of the wallet's currency" }),
    ...redemptionRequestFields(
      "Multi-location reporting: recorded on the transaction as sent (null when absent), with every key. Unlike fleet cards, a station-scoped key does not replace it with the key's own location",
    ),
  })
  .meta({ id: 'RedeemGiftCard' });

const GiftCardTransaction = z
  .object({
    ...redemptionTransactionHead,
    merchant_wallet_id: z.string(),
    amount: z.int(),
    ...redemptionTransactionTail,
  })
  .meta({ id: 'GiftCardTransaction' });

const GiftCardWalletState = z
  .object({ id: z.string(), balance: z.int(), currency: WalletCurrency })
  .meta({ id: 'GiftCardWalletState' });

export const GiftCardRedemption = z
  .object({ transaction: GiftCardTransaction, wallet: GiftCardWalletState })
  .meta({ id: 'GiftCardRedemption' });

/** Control API: issue a pocket to a customer of a merchant. */
export const IssueGiftCardWallet = z.strictObject({
  merchant_id: z.string().min(1),
  environment: Environment,
  currency: WalletCurrency,
  balance: z.int().min(0).max(100_000_000_000).default(0),
  holder_phone: z.string().min(1).max(32).optional(),
});

export const LoadGiftCardWallet = z.strictObject({ amount: MinorUnits });

export const GiftCardWalletQuery = z.strictObject({ merchant_id: z.string().min(1), environment: Environment.optional() });

export type RedeemGiftCard = z.infer<typeof RedeemGiftCard>;
export type GiftCardRedemption = z.infer<typeof GiftCardRedemption>;
export type IssueGiftCardWallet = z.infer<typeof IssueGiftCardWallet>;
