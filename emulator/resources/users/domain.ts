import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { InsufficientFundsError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Environment } from '../merchants/records.js';
import { normalizePhone } from './phone.js';
import { addMoney } from '../../money.js';

// Service users: the consumers of the service's wallet app, seeded from fixtures. The
// merchant API never reads them directly; they are reached by phone (payroll lines, wallet
// mandates, sub-merchant managers). Each user has a wallet per environment and currency, so
// test traffic never moves live money. Every change is a ledger entry written with the
// balance, and a balance never goes below zero.

export const USERS = storedCollection('users', { by_phone: (u) => normalizePhone(u.phone) });
export const USER_WALLET_ENTRIES = storedCollection('user_wallet_entries', { by_user: (e) => e.user_id });

type UserCurrency = 'USD' | 'LRD';

export type UserRecord = RecordOf<'users'>;

/** The user with this phone (any common spelling of it), if any. */
export function findUserByPhone(services: Pick<Services, 'store'>, phone: string): UserRecord | undefined {
  const e164 = normalizePhone(phone);
  return e164 ? services.store.byIndex(USERS, 'by_phone', e164)[0] : undefined;
}

export function userBalance(user: UserRecord, environment: Environment, currency: string): number {
  return user.wallets[environment]?.[currency as UserCurrency] ?? 0;
}

function move(services: Pick<Services, 'store' | 'stamps'>, tx: Transaction, userId: string, environment: Environment, currency: string, amount: number, reason: string, ref: string | null): UserRecord {
  if (!Number.isSafeInteger(amount)) throw new Error(`wallet amounts are integers in minor units, got ${amount}`);
  const user = services.store.get(USERS, userId);
  if (!user) throw new Error(`no user ${userId}`);
  const held = userBalance(user, environment, currency);
  if (held + amount < 0) {
    throw new InsufficientFundsError(`insufficient funds: the customer's ${environment} ${currency} wallet holds ${held} (minor units); ${-amount} is needed.`);
  }
  tx.put(USER_WALLET_ENTRIES, {
    id: newId('uwe'),
    user_id: userId,
    environment,
    currency,
    amount,
    reason,
    ref,
    created_at: services.stamps.next(),
  });
  const balance = addMoney(`the customer's ${environment} ${currency} wallet`, held, amount);
  const wallets = { ...user.wallets, [environment]: { ...user.wallets[environment], [currency]: balance } };
  return tx.put(USERS, { ...user, wallets });
}

export const creditUser = (s: Pick<Services, 'store' | 'stamps'>, tx: Transaction, userId: string, environment: Environment, currency: string, amount: number, reason: string, ref: string | null = null) =>
  move(s, tx, userId, environment, currency, Math.abs(amount), reason, ref);

/** Throws InsufficientFundsError (422 VALIDATION_ERROR) rather than going below zero. */
export const debitUser = (s: Pick<Services, 'store' | 'stamps'>, tx: Transaction, userId: string, environment: Environment, currency: string, amount: number, reason: string, ref: string | null = null) =>
  move(s, tx, userId, environment, currency, -Math.abs(amount), reason, ref);

/** What the control API shows of a user: never the PIN hash. */
export function toControlUser(services: Pick<Services, 'store'>, user: UserRecord) {
  const entries = services.store.byIndex(USER_WALLET_ENTRIES, 'by_user', user.id);
  return {
    id: user.id,
    name: user.name,
    phone: user.phone,
    business: user.business ?? false,
    wallets: user.wallets,
    entries: entries.map(({ user_id: _u, ...e }) => e),
  };
}
