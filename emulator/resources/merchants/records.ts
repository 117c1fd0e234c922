import { hash, timingSafeEqual } from 'node:crypto';
import type { Services } from '../../services.js';
import type { StoredRecord } from '../../store/store.js';
import { notFound } from '../../schema/errors.js';

// Merchants and their API keys. Both are seeded from fixtures and persisted with the store,
// so a restart keeps them; the merchant API cannot mint keys.

export type Environment = 'test' | 'live';

export interface MerchantRecord extends StoredRecord {
  id: string;
  name: string;
  /** Business accounts may use sub-merchants, payroll and payouts. */
  business: boolean;
  /** scrypt hash of the owner's PIN (payroll approval, payee approval). */
  owner_pin_hash?: string;
  owner_phone?: string;
  /** Set on a sub-merchant: the parent's id. */
  parent_id?: string;
  created_at: string;
}

export interface KeyRecord extends StoredRecord {
  id: string;
  name: string;
  merchant_id: string;
  environment: Environment;
  scopes: string[];
  revoked: boolean;
  /** sha256 of the full key, hex. The key itself is kept too: the emulator prints seeded keys. */
  key_sha256: string;
  key: string;
  /** A station-scoped key stamps this location on fleet-card redemptions. */
  station_location_id?: string;
}

export const MERCHANTS = 'merchants';
export const API_KEYS = 'api_keys';

export const KEY_PATTERN = /^svc_(test|live)_[A-Za-z0-9]{16,128}$/;

// One-shot hash: every request authenticates, and a Hash object per call showed in profiles.
export const sha256 = (text: string) => hash('sha256', text, 'buffer');

export function defineKeyIndexes(services: Pick<Services, 'store'>): void {
  services.store.defineIndex<KeyRecord>({ collection: API_KEYS, name: 'by_hash', key: (k) => k.key_sha256 });
}

/**
 * Finds the key record for a presented key. The lookup goes through the sha256 of the key,
 * and the final comparison is constant-time over the digests, so response time says nothing
 * about how much of a guessed key was right.
 */
export function findKey(services: Pick<Services, 'store'>, presented: string): KeyRecord | undefined {
  const digest = sha256(presented);
  const [candidate] = services.store.byIndex<KeyRecord>(API_KEYS, 'by_hash', digest.toString('hex'));
  if (!candidate) return undefined;
  return timingSafeEqual(Buffer.from(candidate.key_sha256, 'hex'), digest) ? candidate : undefined;
}

/** `svc_test_…a1b2`: enough to tell keys apart in logs, never enough to use one. */
export function maskSecret(secret: string): string {
  const prefix = /^svc_(test|live)_/.exec(secret)?.[0] ?? '';
  return `${prefix}…${secret.slice(-4)}`;
}

/** A merchant by id for the control API (dashboard actions name the merchant); 404 if absent. */
export function merchantOr404(services: Pick<Services, 'store'>, merchantId: string): MerchantRecord {
  const merchant = services.store.get<MerchantRecord>(MERCHANTS, merchantId);
  if (!merchant) throw notFound('merchant');
  return merchant;
}
