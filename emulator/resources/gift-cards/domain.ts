import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { merchantOr404, type Environment } from '../merchants/records.js';
import { assertBalanceCovers, cardLedgerView, creditMerchant, dashboardRecordFields, redemptionRecordFields, redemptionTransactionView } from '../redemptions/domain.js';
import type { GiftCardRedemption, IssueGiftCardWallet, RedeemGiftCard } from '../../../contract/resources/gift-cards.js';
import { findOwn } from '../merchants/own.js';
import { addMoney } from '../../money.js';

// Gift-card pockets hold the customer's money at one merchant. A redemption moves it from the
// pocket to the merchant's own wallet (same currency, ledger reason gift_card_redemption), so
// the merchant is paid exactly as for any other sale and no money appears or vanishes.
// Every change of a pocket is also a row in gift_card_transactions (issue, load, redemption).

export const GIFT_CARD_WALLETS = storedCollection('gift_card_wallets', { by_merchant: (w) => w.merchant_id });
export const GIFT_CARD_TRANSACTIONS = storedCollection('gift_card_transactions', { by_wallet: (t) => t.wallet_id });

export type GiftCardWalletRecord = RecordOf<'gift_card_wallets'>;

const walletState = (w: GiftCardWalletRecord) => ({ id: w.id, balance: w.balance, currency: w.currency });

export function redeemGiftCard(ctx: MerchantContext, input: RedeemGiftCard, tx: Transaction): GiftCardRedemption {
  const wallet = findOwn<GiftCardWalletRecord>(ctx, GIFT_CARD_WALLETS, input.merchant_wallet_id);
  // A pocket of another merchant or environment is indistinguishable from an absent one.
  if (!wallet) throw notFound('merchant wallet');
  assertBalanceCovers('The gift-card wallet', wallet.balance, wallet.currency, input.amount);
  const updated = tx.put(GIFT_CARD_WALLETS, { ...wallet, balance: wallet.balance - input.amount });
  const txn = tx.put(GIFT_CARD_TRANSACTIONS, {
    id: newId('gct'),
    wallet_id: wallet.id,
    type: 'redemption',
    amount: input.amount,
    ...redemptionRecordFields(ctx, input, wallet.currency, 'body'),
  });
  creditMerchant(ctx, tx, wallet.currency, input.amount, 'gift_card_redemption', txn.id);
  return {
    transaction: {
      id: txn.id,
      type: 'redemption',
      status: 'completed',
      merchant_wallet_id: wallet.id,
      amount: txn.amount,
      ...redemptionTransactionView(txn, input.idempotency_key),
    },
    wallet: walletState(updated),
  };
}

// Dashboard actions (control API).

function record(services: Pick<Services, 'stamps'>, tx: Transaction, wallet: GiftCardWalletRecord, type: 'issue' | 'load', amount: number): void {
  tx.put(GIFT_CARD_TRANSACTIONS, {
    id: newId('gct'),
    wallet_id: wallet.id,
    type,
    amount,
    ...dashboardRecordFields(services, wallet.currency, wallet.environment),
  });
}

/** Issues a pocket; its opening balance is an `issue` transaction. `id` is given by fixtures only. */
export function issueGiftCardWallet(services: Pick<Services, 'store' | 'stamps'>, tx: Transaction, input: IssueGiftCardWallet & { id?: string }): GiftCardWalletRecord {
  merchantOr404(services, input.merchant_id);
  const wallet = tx.put(GIFT_CARD_WALLETS, {
    id: input.id ?? newId('mw'),
    merchant_id: input.merchant_id,
    environment: input.environment,
    currency: input.currency,
    balance: input.balance,
    ...(input.holder_phone ? { holder_phone: input.holder_phone } : {}),
  });
  record(services, tx, wallet, 'issue', input.balance);
  return wallet;
}

export function loadGiftCardWallet(services: Pick<Services, 'store' | 'stamps'>, tx: Transaction, id: string, amount: number): GiftCardWalletRecord {
  const wallet = services.store.get(GIFT_CARD_WALLETS, id);
  if (!wallet) throw notFound('merchant wallet');
  const loaded = tx.put(GIFT_CARD_WALLETS, { ...wallet, balance: addMoney(`gift card wallet ${wallet.id}`, wallet.balance, amount) });
  record(services, tx, loaded, 'load', amount);
  return loaded;
}

export function listGiftCardWallets(services: Pick<Services, 'store'>, merchantId: string, environment?: Environment): GiftCardWalletRecord[] {
  merchantOr404(services, merchantId);
  return services.store
    .byIndex(GIFT_CARD_WALLETS, 'by_merchant', merchantId)
    .filter((w) => environment === undefined || w.environment === environment);
}

/** A pocket with its transaction log (control API). */
export function giftCardWalletLedger(services: Pick<Services, 'store'>, id: string) {
  const wallet = services.store.get(GIFT_CARD_WALLETS, id);
  if (!wallet) throw notFound('merchant wallet');
  return cardLedgerView(wallet, services.store.byIndex(GIFT_CARD_TRANSACTIONS, 'by_wallet', id));
}
