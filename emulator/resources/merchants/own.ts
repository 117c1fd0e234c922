import type { MerchantContext } from '../../services.js';
import type { StoredRecord } from '../../store/store.js';
import type { Collection } from '../../store/collection.js';
import type { Environment } from './records.js';

/**
 * A record of the calling key's merchant and environment, or undefined. Another merchant's
 * record, or one of the other environment, is indistinguishable from an absent one: callers
 * answer both the same way (404), so ids cannot be probed across merchants.
 */
export function findOwn<T extends StoredRecord & { merchant_id: string; environment: Environment }>(
  ctx: Pick<MerchantContext, 'services' | 'merchant' | 'environment'>,
  collection: Collection<T>,
  id: string,
): T | undefined {
  const record = ctx.services.store.get(collection, id);
  return record && record.merchant_id === ctx.merchant.id && record.environment === ctx.environment ? record : undefined;
}
