import type { z } from 'zod';
import { RECORD_SCHEMAS, worldProblems, type CollectionName } from '../contract/records/index.js';
import type { Collection } from './store/collection.js';
import type { StoredRecord } from './store/store.js';
import { ApiError } from './errors.js';
import { API_KEYS, MERCHANTS, type MerchantRecord } from './resources/merchants/records.js';
import type { SubMerchantRecord } from './resources/sub-merchants/domain.js';
import { PAYMENT_LINKS } from './resources/payment-links/domain.js';
import { PAYMENTS } from './resources/payments/domain.js';
import { MANDATES } from './resources/mandates/domain.js';
import { PAYROLL_RUNS } from './resources/payroll/domain.js';
import { CHECKOUT_PAYMENTS } from './pages/checkout-pay.js';
import { WALLETS, WALLET_ENTRIES } from './resources/wallets/domain.js';
import { USERS, USER_WALLET_ENTRIES } from './resources/users/domain.js';
import { GIFT_CARD_WALLETS, GIFT_CARD_TRANSACTIONS } from './resources/gift-cards/domain.js';
import { FLEET_CARDS, FLEET_CARD_TRANSACTIONS } from './resources/fleet-cards/domain.js';
import { PAYEES } from './resources/payees/domain.js';
import { PAYOUTS, PAYOUT_PROVIDER } from './resources/payouts/domain.js';
import { EVENTS } from './resources/events/outbox.js';
import { WEBHOOK_ENDPOINTS } from './resources/webhook-endpoints/domain.js';
import { DELIVERIES } from './webhooks/records.js';
import { IDEMPOTENCY } from './gateway/idempotency.js';
import { CLOCK_STATE } from './scheduler/clock-record.js';
import { PIN_ATTEMPTS } from './resources/users/pin-guard.js';
import { OTP_INBOX, OTP_LOCKS } from './resources/sub-merchants/otp.js';
import { FORM_SECRETS, FORM_SUBMISSIONS } from './pages/form-token.js';
import { REQUEST_LOG } from './request-log/records.js';

// The record types the emulator writes (interfaces next to each collection handle) and the
// record schemas a restored world is checked against (contract/records/) are two writings of
// one shape. Each pair is bound here, and a pair that differs does not compile: a field added,
// removed, renamed or retyped on one side only is an error in this file.

/** The declared fields of a record type, without StoredRecord's index signature. */
type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type RecordOf<C> = C extends Collection<infer T, infer _I> ? T : never;
/** Same fields, same types both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? ([keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false) : false) : false;

/**
 * Binds a collection to its schema. The rest parameter is `[]` when the schema's output and the
 * record type agree, and `[never]` (no argument fits) when they do not: the call fails to compile.
 * `T` is the record type, the collection's unless a collection holds two kinds (merchants).
 */
function bind<N extends CollectionName, T extends StoredRecord = never>(
  name: N,
  collection: Collection<[T] extends [never] ? StoredRecord : T, string> & { name: string },
  ..._agree: Same<Known<z.infer<(typeof RECORD_SCHEMAS)[N]>>, Known<[T] extends [never] ? RecordOf<typeof collection> : T>> extends true ? [] : [never]
): N {
  if (collection.name !== name) throw new Error(`world-records: collection ${collection.name} bound as ${name}`);
  return name;
}

// A sub-merchant is a merchant record with two more fields.
type AnyMerchant = MerchantRecord & Partial<Pick<SubMerchantRecord, 'environment' | 'manager_user_id'>>;

const BOUND = [
  bind<'merchants', AnyMerchant>('merchants', MERCHANTS),
  bind('api_keys', API_KEYS),
  bind('payment_links', PAYMENT_LINKS),
  bind('payments', PAYMENTS),
  bind('mandates', MANDATES),
  bind('payroll_runs', PAYROLL_RUNS),
  bind('checkout_payments', CHECKOUT_PAYMENTS),
  bind('wallets', WALLETS),
  bind('wallet_entries', WALLET_ENTRIES),
  bind('users', USERS),
  bind('user_wallet_entries', USER_WALLET_ENTRIES),
  bind('gift_card_wallets', GIFT_CARD_WALLETS),
  bind('gift_card_transactions', GIFT_CARD_TRANSACTIONS),
  bind('fleet_cards', FLEET_CARDS),
  bind('fleet_card_transactions', FLEET_CARD_TRANSACTIONS),
  bind('payees', PAYEES),
  bind('payouts', PAYOUTS),
  bind('payout_provider', PAYOUT_PROVIDER),
  bind('events', EVENTS),
  bind('webhook_endpoints', WEBHOOK_ENDPOINTS),
  bind('webhook_deliveries', DELIVERIES),
  bind('idempotency', IDEMPOTENCY as Collection<(typeof IDEMPOTENCY)['record'] & StoredRecord>),
  bind('emulator_clock', CLOCK_STATE),
  bind('pin_attempts', PIN_ATTEMPTS),
  bind('otp_inbox', OTP_INBOX),
  bind('otp_locks', OTP_LOCKS),
  bind('checkout_state', FORM_SECRETS),
  bind('checkout_submissions', FORM_SUBMISSIONS),
  bind('request_log', REQUEST_LOG),
] as const;

// Every schema is bound (a collection named in contract/records/ but not here does not compile).
type Unbound = Exclude<CollectionName, (typeof BOUND)[number]>;
const everySchemaBound: [Unbound] extends [never] ? true : Unbound = true;
void everySchemaBound;

/** The collections a restored world is checked for, by name (a test compares them with the registry's). */
export const checkedCollections = (): readonly string[] => BOUND;

/**
 * Refuses a world that must not replace the current one (422 VALIDATION_ERROR naming each
 * problem's JSON path); the caller has changed nothing yet.
 */
export function refuseBadWorld(collections: Record<string, readonly unknown[]>): void {
  const problems = worldProblems(collections);
  if (problems.length > 0) throw new ApiError('VALIDATION_ERROR', `The snapshot was refused; the world was left as it was. ${problems.join('; ')}.`);
}
