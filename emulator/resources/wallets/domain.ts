import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { InsufficientFundsError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Environment } from '../merchants/records.js';
import { addMoney } from '../../money.js';

// Merchant wallets: one balance per merchant (or sub-merchant), environment and currency, in
// minor units. Every change is a ledger entry written in the same transaction as the balance,
// so `balance == sum(entries)` always holds and money is never created or lost. A debit that
// would go below zero is refused (InsufficientFundsError, 422 VALIDATION_ERROR); balances are never negative.

export const WALLETS = storedCollection('wallets', { by_owner: (w) => w.merchant_id });
export const WALLET_ENTRIES = storedCollection('wallet_entries', { by_wallet: (e) => e.wallet_id });

type WalletRecord = RecordOf<'wallets'>;

interface WalletScope {
  merchantId: string;
  environment: Environment;
  currency: string;
}

export const walletId = (s: WalletScope) => `${s.merchantId}:${s.environment}:${s.currency}`;

/** All wallets of a merchant (or sub-merchant). */
export function walletsOf(services: Pick<Services, 'store'>, merchantId: string): WalletRecord[] {
  return services.store.byIndex(WALLETS, 'by_owner', merchantId);
}

function move(services: Pick<Services, 'store' | 'stamps'>, tx: Transaction, scope: WalletScope, amount: number, reason: string, ref: string | null): WalletRecord {
  if (!Number.isSafeInteger(amount)) throw new Error(`wallet amounts are integers in minor units, got ${amount}`);
  const id = walletId(scope);
  const wallet = services.store.get(WALLETS, id) ?? {
    id,
    merchant_id: scope.merchantId,
    environment: scope.environment,
    currency: scope.currency,
    balance: 0,
  };
  const balance = addMoney(`the ${scope.environment} ${scope.currency} wallet of ${scope.merchantId}`, wallet.balance, amount);
  if (balance < 0) {
    throw new InsufficientFundsError(`insufficient funds: the merchant's ${scope.environment} ${scope.currency} wallet holds ${wallet.balance} (minor units); ${-amount} is needed.`);
  }
  tx.put(WALLET_ENTRIES, { id: newId('wle'), wallet_id: id, amount, reason, ref, created_at: services.stamps.next() });
  return tx.put(WALLETS, { ...wallet, balance });
}

export const credit = (s: Pick<Services, 'store' | 'stamps'>, tx: Transaction, scope: WalletScope, amount: number, reason: string, ref: string | null = null) =>
  move(s, tx, scope, Math.abs(amount), reason, ref);

/** Throws InsufficientFundsError (422 VALIDATION_ERROR) rather than going below zero. */
export const debit = (s: Pick<Services, 'store' | 'stamps'>, tx: Transaction, scope: WalletScope, amount: number, reason: string, ref: string | null = null) =>
  move(s, tx, scope, -Math.abs(amount), reason, ref);
