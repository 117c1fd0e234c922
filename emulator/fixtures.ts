import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Services } from './services.js';
import { SCOPES } from './schema/common.js';
import { API_KEYS, KEY_PATTERN, MERCHANTS, sha256, type KeyRecord, type MerchantRecord } from './resources/merchants/records.js';
import { hashPin } from './resources/merchants/pin.js';
import { credit } from './resources/wallets/domain.js';
import { creditUser } from './resources/users/domain.js';
import { issueFleetCard } from './resources/fleet-cards/domain.js';
import type { IssueFleetCard } from './resources/fleet-cards/schema.js';
import { issueGiftCardWallet } from './resources/gift-cards/domain.js';
import { Balance } from './schema/money.js';
import { isoMicros } from './ids.js';

// Fixtures seed a fresh data dir: merchants and their keys, service users, and what the
// dashboard would otherwise have set up (payees, cards, wallet balances). A data dir that
// already holds a store is never re-seeded: a restart keeps everything as it was.

const Env = z.enum(['test', 'live']);
// Balances and caps: non-negative safe integers, the bound every balance change keeps (schema/money.ts).
const Minor = Balance;

const FixtureKey = z.strictObject({
  name: z.string(),
  key: z.string().regex(KEY_PATTERN, 'must look like svc_test_… or svc_live_… with 16+ letters and digits'),
  environment: Env,
  scopes: z.union([z.literal('all'), z.array(z.enum(SCOPES))]),
  revoked: z.boolean().optional(),
  station_location_id: z.string().optional(),
});

const FixtureMerchant = z.strictObject({
  id: z.string(),
  name: z.string(),
  business: z.boolean(),
  owner_phone: z.string(),
  owner_pin: z.string().regex(/^\d{4,6}$/),
  keys: z.array(FixtureKey),
  wallets: z.array(z.strictObject({ environment: Env, currency: z.enum(['USD', 'LRD']), balance: Minor })).default([]),
  payees: z
    .array(
      z.strictObject({
        id: z.string(),
        environment: Env,
        name: z.string(),
        currency: z.enum(['USD', 'LRD']),
        per_payout_cap: Minor,
        daily_cap: Minor,
        status: z.enum(['pending_approval', 'approved', 'revoked']),
      }),
    )
    .default([]),
  gift_card_wallets: z
    .array(z.strictObject({ id: z.string(), environment: Env, currency: z.enum(['USD', 'LRD']), balance: Minor, holder_phone: z.string().optional() }))
    .default([]),
  fleet_cards: z
    .array(
      z.strictObject({
        id: z.string(),
        environment: Env,
        status: z.enum(['active', 'inactive']),
        allowed_categories: z.array(z.string()),
        balance: Minor,
        spend_limit: Minor,
        spend_period: z.enum(['daily', 'weekly', 'monthly']),
        currency: z.enum(['USD', 'LRD']),
      }),
    )
    .default([]),
});

export const FixtureFile = z.object({
  $comment: z.string().optional(),
  merchants: z.array(FixtureMerchant),
  users: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      phone: z.string(),
      pin: z.string().regex(/^\d{4,6}$/),
      wallets: z.record(z.enum(['USD', 'LRD']), Minor),
    }),
  ),
});
export type FixtureFile = z.infer<typeof FixtureFile>;

export function readFixtures(path: string): FixtureFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read fixtures ${path}: ${(err as Error).message}`);
  }
  const parsed = FixtureFile.safeParse(raw);
  if (!parsed.success) throw new Error(`fixtures ${path} are invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export function seed(services: Services, fixtures: FixtureFile): void {
  try {
    seedAll(services, fixtures);
  } catch (err) {
    // A balance the ledgers refuse (e.g. two opening entries adding up past the safe range).
    throw new Error(`fixtures cannot be seeded: ${(err as Error).message}`);
  }
}

function seedAll(services: Services, fixtures: FixtureFile): void {
  const createdAt = isoMicros(services.clock.now());
  services.store.transaction((tx) => {
    for (const m of fixtures.merchants) {
      tx.put<MerchantRecord>(MERCHANTS, {
        id: m.id,
        name: m.name,
        business: m.business,
        owner_phone: m.owner_phone,
        owner_pin_hash: hashPin(m.owner_pin),
        created_at: createdAt,
      });
      for (const k of m.keys) {
        tx.put<KeyRecord>(API_KEYS, {
          id: `key_${k.name}`,
          name: k.name,
          merchant_id: m.id,
          environment: k.environment,
          scopes: k.scopes === 'all' ? [...SCOPES] : k.scopes,
          revoked: k.revoked ?? false,
          key: k.key,
          key_sha256: sha256(k.key).toString('hex'),
          ...(k.station_location_id ? { station_location_id: k.station_location_id } : {}),
        });
        if (!k.key.startsWith(`svc_${k.environment}_`)) throw new Error(`fixture key ${k.name}: prefix does not match environment ${k.environment}`);
      }
      // Opening balances go through each ledger (a `fixture` entry, or the cards' `issue`
      // transaction), so every balance == the sum of its entries from the start, and a sum past
      // the safe-integer range is refused as any other balance change is.
      for (const w of m.wallets) if (w.balance > 0) credit(services, tx, { merchantId: m.id, environment: w.environment, currency: w.currency }, w.balance, 'fixture');
      for (const p of m.payees) tx.put('payees', { ...p, merchant_id: m.id, created_at: createdAt });
      for (const g of m.gift_card_wallets) issueGiftCardWallet(services, tx, { ...g, merchant_id: m.id });
      for (const f of m.fleet_cards) issueFleetCard(services, tx, { ...f, allowed_categories: f.allowed_categories as IssueFleetCard['allowed_categories'], merchant_id: m.id });
    }
    for (const u of fixtures.users) {
      // A service user's wallet exists in both environments; test traffic never drains live money.
      tx.put('users', {
        id: u.id,
        name: u.name,
        phone: u.phone,
        pin_hash: hashPin(u.pin),
        // Every fixture currency is listed (at 0 until its opening entry below), as before.
        wallets: { test: zeroed(u.wallets), live: zeroed(u.wallets) },
      });
      for (const environment of ['test', 'live'] as const) {
        for (const [currency, balance] of Object.entries(u.wallets)) if (balance > 0) creditUser(services, tx, u.id, environment, currency, balance, 'fixture');
      }
    }
  });
}

const zeroed = (wallets: Record<string, number>) => Object.fromEntries(Object.keys(wallets).map((c) => [c, 0]));

/** The keys as the ready line lists them. */
export function listKeys(services: Pick<Services, 'store'>) {
  return [...services.store.all<KeyRecord>(API_KEYS)].map((k) => ({
    name: k.name,
    key: k.key,
    environment: k.environment,
    scopes: k.scopes,
    merchant_id: k.merchant_id,
    revoked: k.revoked,
  }));
}
