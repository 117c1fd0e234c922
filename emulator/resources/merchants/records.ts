import { storedCollection, type RecordOf } from '../../store/collection.js';
import { hash, timingSafeEqual } from 'node:crypto';
import type { Services } from '../../services.js';
import { notFound } from '../../errors.js';

// Merchants and their API keys. Both are seeded from fixtures and persisted with the store,
// so a restart keeps them; the merchant API cannot mint keys.

export type Environment = 'test' | 'live';

export type MerchantRecord = RecordOf<'merchants'>;

export type KeyRecord = RecordOf<'api_keys'>;

/** A parent merchant's sub-merchants of one environment (the sub_by_parent index key). */
export const subScope = (parentId: string, environment: string) => `${parentId}:${environment}`;
export const MERCHANTS = storedCollection('merchants', { sub_by_parent: (m) => (m.parent_id ? subScope(m.parent_id, String(m.environment)) : undefined) });
export const API_KEYS = storedCollection('api_keys', { by_hash: (k) => k.key_sha256 });


// One-shot hash: every request authenticates, and a Hash object per call showed in profiles.
export const sha256 = (text: string) => hash('sha256', text, 'buffer');

/**
 * Finds the key record for a presented key. The lookup goes through the sha256 of the key,
 * and the final comparison is constant-time over the digests, so response time says nothing
 * about how much of a guessed key was right.
 */
export function findKey(services: Pick<Services, 'store'>, presented: string): KeyRecord | undefined {
  const digest = sha256(presented);
  const [candidate] = services.store.byIndex(API_KEYS, 'by_hash', digest.toString('hex'));
  if (!candidate) return undefined;
  return timingSafeEqual(Buffer.from(candidate.key_sha256, 'hex'), digest) ? candidate : undefined;
}

/** `svc_test_…a1b2`: enough to tell keys apart in logs, never enough to use one. */

/** A merchant by id for the control API (dashboard actions name the merchant); 404 if absent. */
export function merchantOr404(services: Pick<Services, 'store'>, merchantId: string): MerchantRecord {
  const merchant = services.store.get(MERCHANTS, merchantId);
  if (!merchant) throw notFound('merchant');
  return merchant;
}
