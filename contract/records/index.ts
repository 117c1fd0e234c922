import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { jsonPath } from '../json-path.js';
import { ownValue } from '../own-key.js';
import { ledgerProblems } from './ledger-rules.js';
import * as ledgers from './ledgers.js';
import * as business from './business.js';
import * as system from './system.js';

// Every collection of the store and the schema of its records: what a world snapshot (POST
// /_emulator/snapshot/restore, POST /_emulator/snapshots/{name}/restore, the testing API's
// restore(), `svc emulator start --import`) is checked against before it replaces anything.
// A record may carry fields this version does not know (kept as they are); a known field of the
// wrong type, a money field that is not a safe integer, or a missing one is refused by its path.

export const RECORD_SCHEMAS = {
  merchants: business.MerchantRecord,
  api_keys: business.KeyRecord,
  payment_links: business.LinkRecord,
  payments: business.PaymentRecord,
  mandates: business.MandateRecord,
  payroll_runs: business.PayrollRunRecord,
  checkout_payments: business.CheckoutPaymentRecord,
  wallets: ledgers.WalletRecord,
  wallet_entries: ledgers.WalletEntryRecord,
  users: ledgers.UserRecord,
  user_wallet_entries: ledgers.UserWalletEntryRecord,
  gift_card_wallets: ledgers.GiftCardWalletRecord,
  gift_card_transactions: ledgers.GiftCardTransactionRecord,
  fleet_cards: ledgers.FleetCardRecord,
  fleet_card_transactions: ledgers.FleetCardTransactionRecord,
  payees: ledgers.PayeeRecord,
  payouts: ledgers.PayoutRecord,
  payout_provider: ledgers.PayoutProviderRecord,
  events: system.EventRecord,
  webhook_endpoints: system.EndpointRecord,
  webhook_deliveries: system.DeliveryRecord,
  idempotency: system.IdempotencyRecord,
  emulator_clock: system.ClockRecord,
  pin_attempts: system.PinAttemptRecord,
  otp_inbox: system.OtpRecord,
  otp_locks: system.OtpLockRecord,
  checkout_state: system.FormSecretRecord,
  checkout_submissions: system.FormSubmissionRecord,
  request_log: system.RequestLogRecord,
} as const satisfies Record<string, z.ZodType>;

export type CollectionName = keyof typeof RECORD_SCHEMAS;

const MAX_PROBLEMS = 20;

/**
 * Why a world (a snapshot's `collections`) cannot replace the current one, each problem named
 * by its JSON path; [] when it can. Checks every record against its collection's schema, that
 * no collection holds an id twice, that no key secret is held twice (or under a hash that is not
 * its own: the key would act as another merchant, or as none), that at least one API key is
 * left that is not revoked (without one, nothing could call the API or the emulator again), and
 * the ledger rule (ledger-rules.ts): every balance is the sum of its entries, and no entry is
 * for a wallet that is not there. The one check of a world: a restore, `--import`, and the
 * world a fixtures file seeds (emulator/fixtures.ts) all go through it.
 */
export function worldProblems(collections: Record<string, readonly unknown[]>): string[] {
  const problems: string[] = [];
  const add = (p: string) => problems.length < MAX_PROBLEMS && problems.push(p);
  for (const [name, records] of Object.entries(collections)) {
    const schema: z.ZodType | undefined = ownValue(RECORD_SCHEMAS, name);
    if (!schema) {
      add(`${jsonPath(['collections', name])}: not a collection of this emulator (known: ${Object.keys(RECORD_SCHEMAS).sort().join(', ')})`);
      continue;
    }
    const seen = new Map<string, number>();
    records.forEach((record, i) => {
      const parsed = schema.safeParse(record);
      if (!parsed.success) for (const issue of parsed.error.issues) add(`${jsonPath(['collections', name, i, ...issue.path])}: ${issue.message}`);
      const id = (record as { id?: unknown }).id;
      if (typeof id !== 'string') return;
      const first = seen.get(id);
      if (first === undefined) seen.set(id, i);
      else add(`${jsonPath(['collections', name, i, 'id'])}: ${JSON.stringify(id)} is also ${jsonPath(['collections', name, first, 'id'])}`);
    });
  }
  keyProblems(collections.api_keys ?? [], add);
  ledgerProblems(collections, add);
  return problems;
}

function keyProblems(keys: readonly unknown[], add: (p: string) => void): void {
  const bySecret = new Map<string, number>();
  let usable = 0;
  keys.forEach((raw, i) => {
    const k = raw as { key?: unknown; key_sha256?: unknown; revoked?: unknown };
    if (typeof k.key !== 'string') return;
    const first = bySecret.get(k.key);
    if (first === undefined) bySecret.set(k.key, i);
    else add(`${jsonPath(['collections', 'api_keys', i, 'key'])}: the same secret as ${jsonPath(['collections', 'api_keys', first, 'key'])} (a key names one merchant)`);
    if (typeof k.key_sha256 === 'string' && k.key_sha256 !== createHash('sha256').update(k.key).digest('hex')) {
      add(`${jsonPath(['collections', 'api_keys', i, 'key_sha256'])}: not the sha256 of ${jsonPath(['collections', 'api_keys', i, 'key'])}`);
    }
    if (k.revoked === false) usable++;
  });
  if (usable === 0) add(`${jsonPath(['collections', 'api_keys'])}: the snapshot would leave no API key (none that is not revoked), so nothing could call the API`);
}
