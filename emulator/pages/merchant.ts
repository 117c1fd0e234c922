import type { Services } from '../services.js';
import { MERCHANTS } from '../resources/merchants/records.js';

/** Who is asking for the money or the approval, as every page shows it. */
export const merchantName = (services: Pick<Services, 'store'>, merchantId: string) =>
  services.store.get(MERCHANTS, merchantId)?.name ?? 'the merchant';
