import type { Services } from './services.js';
import { SCOPES } from '../contract/common.js';
import { API_KEYS, MERCHANTS, sha256 } from './resources/merchants/records.js';
import { hashPin } from './resources/merchants/pin.js';
import { credit } from './resources/wallets/domain.js';
import { creditUser } from './resources/users/domain.js';
import { issueFleetCard } from './resources/fleet-cards/domain.js';
import type { IssueFleetCard } from '../contract/resources/fleet-cards.js';
import { issueGiftCardWallet } from './resources/gift-cards/domain.js';
import type { FixtureFile } from '../contract/fixtures.js';
import { isoMicros } from './ids.js';
import { PAYEES } from './resources/payees/domain.js';
import { USERS } from './resources/users/domain.js';
import { messageOf } from '../contract/errors.js';
import { worldProblems } from '../contract/records/index.js';

// Fixtures seed a fresh data dir: merchants and their keys, service users, and what the
// dashboard would otherwise have set up (payees, cards, wallet balances). A data dir that
// already holds a store is never re-seeded: a restart keeps everything as it was.

export function seed(services: Services, fixtures: FixtureFile): void {
  try {
    seedAll(services, fixtures);
  } catch (err) {
    // A balance the ledgers refuse (e.g. two opening entries adding up past the safe range).
    throw new Error(`fixtures cannot be seeded: ${messageOf(err)}`);
  }
}

function seedAll(services: Services, fixtures: FixtureFile): void {
  const createdAt = isoMicros(services.clock.now());
  services.store.transaction((tx) => {
    for (const m of fixtures.merchants) {
      tx.put(MERCHANTS, {
        id: m.id,
        name: m.name,
        business: m.business,
        owner_phone: m.owner_phone,
        owner_pin_hash: hashPin(m.owner_pin),
        created_at: createdAt,
      });
      for (const k of m.keys) {
        tx.put(API_KEYS, {
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
      for (const p of m.payees) tx.put(PAYEES, { ...p, merchant_id: m.id, created_at: createdAt });
      for (const g of m.gift_card_wallets) issueGiftCardWallet(services, tx, { ...g, merchant_id: m.id });
      for (const f of m.fleet_cards) issueFleetCard(services, tx, { ...f, allowed_categories: f.allowed_categories as IssueFleetCard['allowed_categories'], merchant_id: m.id });
    }
    for (const u of fixtures.users) {
      // A service user's wallet exists in both environments; test traffic never drains live money.
      tx.put(USERS, {
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
    // The world the fixtures make is checked as a restored one is (the one check of a world):
    // a problem throws, and the transaction leaves the store as it was.
    const problems = worldProblems(services.store.dump());
    if (problems.length > 0) throw new Error(problems.join('; '));
  });
}

const zeroed = (wallets: Record<string, number>) => Object.fromEntries(Object.keys(wallets).map((c) => [c, 0]));

/** The keys as the ready line lists them. */
export function listKeys(services: Pick<Services, 'store'>) {
  return [...services.store.all(API_KEYS)].map((k) => ({
    name: k.name,
    key: k.key,
    environment: k.environment,
    scopes: k.scopes,
    merchant_id: k.merchant_id,
    revoked: k.revoked,
  }));
}
