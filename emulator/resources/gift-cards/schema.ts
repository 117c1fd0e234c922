import { z } from 'zod';
import { Environment, IsoTimestamp, MinorUnits, WalletCurrency } from '../../schema/common.js';

// Gift cards are the customer's per-merchant pockets ("merchant wallets" in the spec, the id a
// POS QR encodes). The dashboard issues and loads them; the API only redeems.

/** Same rule as the idempotency header: 1–255 printable ASCII characters, no spaces. */
export const BodyIdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/)
  .meta({ description: 'Body idempotency key (not a header): a retry with the same key and body returns the original result' });

export const RedeemGiftCard = z
  .strictObject({
    merchant_wallet_id: z.string().min(1).meta({ description: "The customer's per-merchant pocket (what a POS QR encodes)" }),
    amount: MinorUnits.meta({ description: "Minor units of the wallet's currency" }),
    reference: z.string().min(1).max(255).optional(),
    idempotency_key: BodyIdempotencyKey,
    location_id: z.string().min(1).max(255).optional().meta({ description: 'Multi-location reporting only; a station-scoped key stamps its own' }),
  })
  .meta({ id: 'RedeemGiftCard' });

export const GiftCardTransaction = z
  .object({
    id: z.string(),
    type: z.literal('redemption'),
    status: z.literal('completed'),
    merchant_wallet_id: z.string(),
    amount: z.int(),
    currency: WalletCurrency,
    reference: z.string().nullable(),
    location_id: z.string().nullable(),
    idempotency_key: z.string(),
    environment: Environment,
    created_at: IsoTimestamp,
  })
  .meta({ id: 'GiftCardTransaction' });

export const GiftCardWalletState = z
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
