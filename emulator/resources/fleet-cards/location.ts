import type { MerchantContext } from '../../services.js';

/**
 * The location a redemption is recorded at. A station-scoped key knows where it is and
 * stamps its own location; the body's `location_id` is then ignored (fleet cards, per the
 * spec; gift cards follow the same rule so one POS reports one location). Otherwise the
 * body's value, or null.
 */
export function redemptionLocation(ctx: MerchantContext, bodyLocation: string | undefined): string | null {
  return ctx.key.station_location_id ?? bodyLocation ?? null;
}
