import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError } from '../../errors.js';
import type { Environment } from '../merchants/records.js';
import { credit } from '../wallets/domain.js';
import type { RecordOf } from '../../store/collection.js';

// The steps every point-of-sale redemption (gift cards, fleet cards) shares once its own
// checks have passed: the balance must cover the amount, the transaction records where and
// under which body key it happened, and the amount is credited to the merchant's wallet.
// Also the fields every card transaction row stores, redemption or dashboard action.

type Currency = 'USD' | 'LRD';

/** Throws INSUFFICIENT_BALANCE unless `balance` covers `amount`; `holder` names the card in the message. */
export function assertBalanceCovers(holder: string, balance: number, currency: Currency, amount: number): void {
  if (amount > balance) throw new ApiError('INSUFFICIENT_BALANCE', `${holder} holds ${balance} ${currency} (minor units); ${amount} was asked.`);
}

/**
 * Who decides where a redemption happened. Fleet cards: a station-scoped key stamps its own
 * location and the body's `location_id` is ignored (the spec). Gift cards: the spec gives
 * `location_id` to the POS for reporting and says nothing of an override, so the body's value
 * is kept even with a station key.
 */
type LocationRule = 'station_overrides' | 'body';

function redemptionLocation(ctx: MerchantContext, bodyLocation: string | undefined, rule: LocationRule): string | null {
  if (rule === 'station_overrides' && ctx.key.station_location_id) return ctx.key.station_location_id;
  return bodyLocation ?? null;
}

interface RedemptionRequest {
  reference?: string | undefined;
  location_id?: string | undefined;
  idempotency_key: string;
}

/** The stored transaction's fields every redemption fills the same way (stamped now). */
export function redemptionRecordFields(ctx: MerchantContext, input: RedemptionRequest, currency: Currency, location: LocationRule) {
  return {
    currency,
    reference: input.reference ?? null,
    location_id: redemptionLocation(ctx, input.location_id, location),
    idempotency_key: input.idempotency_key,
    environment: ctx.environment,
    created_at: ctx.services.stamps.next(),
  };
}

/** What every card transaction row stores besides its card, type and amount (dashboard rows hold nulls). */
type CardTransactionFields = Pick<RecordOf<'gift_card_transactions'>, 'currency' | 'reference' | 'location_id' | 'idempotency_key' | 'environment' | 'created_at'>;

/** The same fields for a dashboard row (issue, load, top-up): no reference, location or body key. */
export function dashboardRecordFields(services: Pick<Services, 'stamps'>, currency: Currency, environment: Environment): CardTransactionFields {
  return { currency, reference: null, location_id: null, idempotency_key: null, environment, created_at: services.stamps.next() };
}

/** The response's transaction fields after the amount (see `redemptionTransactionTail`). */
export const redemptionTransactionView = ({ currency, reference, location_id, environment, created_at }: CardTransactionFields, idempotency_key: string) =>
  ({ currency, reference, location_id, idempotency_key, environment, created_at });

/** Pays the merchant: the redeemed amount lands in its own wallet of the card's currency. */
export function creditMerchant(ctx: MerchantContext, tx: Transaction, currency: Currency, amount: number, reason: string, transactionId: string): void {
  credit(ctx.services, tx, { merchantId: ctx.merchant.id, environment: ctx.environment, currency }, amount, reason, transactionId);
}

/**
 * A card's balance with its transactions, oldest first, for the dashboard (control API):
 * amounts signed (a redemption negative), so the balance is their sum — opening balances
 * included, as `issue` rows.
 */
export function cardLedgerView(card: { id: string; balance: number; currency: Currency }, transactions: Array<CardTransactionFields & { id: string; type: string; amount: number }>) {
  return {
    id: card.id,
    currency: card.currency,
    balance: card.balance,
    transactions: transactions.map((t) => ({ id: t.id, type: t.type, amount: t.type === 'redemption' ? -t.amount : t.amount, created_at: t.created_at })),
  };
}
