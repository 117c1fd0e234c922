import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, notFound } from '../../errors.js';
import { isoMicros, newId } from '../../ids.js';
import { merchantOr404, type Environment } from '../merchants/records.js';
import { assertBalanceCovers, cardLedgerView, creditMerchant, dashboardRecordFields, redemptionRecordFields, redemptionTransactionView } from '../redemptions/domain.js';
import type { FleetCardRedemption, IssueFleetCard, RedeemFleetCard } from '../../../contract/resources/fleet-cards.js';
import { findOwn } from '../merchants/own.js';
import { addMoney } from '../../money.js';

// Fleet-card redemption. Checks, in this order: the card exists for this merchant and
// environment (404), is active (FLEET_CARD_INACTIVE), allows the category
// (CATEGORY_NOT_ALLOWED), holds the amount (INSUFFICIENT_BALANCE), and stays within its spend
// limit for the current period (SPEND_LIMIT_EXCEEDED). Periods come from the emulator clock
// in UTC: a calendar day, an ISO week starting Monday 00:00, a calendar month. The amount
// moves from the card to the merchant's wallet (ledger reason fleet_card_redemption).

export const FLEET_CARDS = storedCollection('fleet_cards', { by_merchant: (c) => c.merchant_id });
export const FLEET_CARD_TRANSACTIONS = storedCollection('fleet_card_transactions', { by_card: (t) => t.card_id });

type Period = 'daily' | 'weekly' | 'monthly';

export type FleetCardRecord = RecordOf<'fleet_cards'>;

const DAY_MS = 86_400_000;

/** Start (ms, UTC) of the spend period that contains `now`. */
function periodStart(period: Period, now: number): number {
  const d = new Date(now);
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === 'daily') return midnight;
  if (period === 'weekly') return midnight - ((d.getUTCDay() + 6) % 7) * DAY_MS; // back to Monday
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function spentSince(services: Pick<Services, 'store'>, cardId: string, since: number): number {
  let spent = 0;
  for (const t of services.store.byIndex(FLEET_CARD_TRANSACTIONS, 'by_card', cardId)) {
    if (t.type === 'redemption' && t.at_ms >= since) spent += t.amount;
  }
  return spent;
}

export function redeemFleetCard(ctx: MerchantContext, input: RedeemFleetCard, tx: Transaction): FleetCardRedemption {
  const card = findOwn<FleetCardRecord>(ctx, FLEET_CARDS, input.fleet_card_id);
  if (!card) throw notFound('fleet card');
  if (card.status !== 'active') throw new ApiError('FLEET_CARD_INACTIVE', `Fleet card ${card.id} is not active.`);
  if (!card.allowed_categories.includes(input.category)) {
    throw new ApiError('CATEGORY_NOT_ALLOWED', `Fleet card ${card.id} does not allow "${input.category}" (allowed: ${card.allowed_categories.join(', ')}).`);
  }
  assertBalanceCovers(`Fleet card ${card.id}`, card.balance, card.currency, input.amount_cents);
  const now = ctx.services.clock.now();
  const start = periodStart(card.spend_period, now);
  const spent = spentSince(ctx.services, card.id, start);
  if (spent + input.amount_cents > card.spend_limit) {
    throw new ApiError(
      'SPEND_LIMIT_EXCEEDED',
      `Fleet card ${card.id} has spent ${spent} of its ${card.spend_period} limit of ${card.spend_limit}; ${input.amount_cents} more would exceed it.`,
    );
  }
  const updated = tx.put(FLEET_CARDS, { ...card, balance: card.balance - input.amount_cents });
  const txn = tx.put(FLEET_CARD_TRANSACTIONS, {
    id: newId('fct'),
    card_id: card.id,
    type: 'redemption',
    category: input.category,
    amount: input.amount_cents,
    ...redemptionRecordFields(ctx, input, card.currency, 'station_overrides'),
    at_ms: now,
  });
  creditMerchant(ctx, tx, card.currency, input.amount_cents, 'fleet_card_redemption', txn.id);
  return {
    transaction: {
      id: txn.id,
      type: 'redemption',
      status: 'completed',
      fleet_card_id: card.id,
      category: input.category,
      amount_cents: txn.amount,
      ...redemptionTransactionView(txn, input.idempotency_key),
    },
    card: {
      id: updated.id,
      status: updated.status,
      balance: updated.balance,
      currency: updated.currency,
      spend_limit: updated.spend_limit,
      spend_period: updated.spend_period,
      period_start: isoMicros(start),
      period_spent: spent + input.amount_cents,
    },
  };
}

// Dashboard actions (control API).

/** Issues a card; its opening balance is an `issue` transaction. `id` is given by fixtures only. */
export function issueFleetCard(services: Pick<Services, 'store' | 'stamps' | 'clock'>, tx: Transaction, input: IssueFleetCard & { id?: string }): FleetCardRecord {
  merchantOr404(services, input.merchant_id);
  const card = tx.put(FLEET_CARDS, {
    id: input.id ?? newId('fc'),
    merchant_id: input.merchant_id,
    environment: input.environment,
    status: input.status,
    allowed_categories: input.allowed_categories,
    balance: 0,
    spend_limit: input.spend_limit,
    spend_period: input.spend_period,
    currency: input.currency,
  });
  return input.balance > 0 ? addToFleetCard(services, tx, card.id, input.balance, 'issue') : card;
}

function cardOr404(services: Pick<Services, 'store'>, id: string): FleetCardRecord {
  const card = services.store.get(FLEET_CARDS, id);
  if (!card) throw notFound('fleet card');
  return card;
}

export function setFleetCardStatus(services: Pick<Services, 'store'>, tx: Transaction, id: string, status: FleetCardRecord['status']): FleetCardRecord {
  return tx.put(FLEET_CARDS, { ...cardOr404(services, id), status });
}

export const topUpFleetCard = (services: Pick<Services, 'store' | 'stamps' | 'clock'>, tx: Transaction, id: string, amount: number) =>
  addToFleetCard(services, tx, id, amount, 'top_up');

function addToFleetCard(services: Pick<Services, 'store' | 'stamps' | 'clock'>, tx: Transaction, id: string, amount: number, type: 'top_up' | 'issue'): FleetCardRecord {
  const card = cardOr404(services, id);
  const balance = addMoney(`fleet card ${card.id}`, card.balance, amount);
  tx.put(FLEET_CARD_TRANSACTIONS, {
    id: newId('fct'),
    card_id: card.id,
    type,
    category: null,
    amount,
    ...dashboardRecordFields(services, card.currency, card.environment),
    at_ms: services.clock.now(),
  });
  return tx.put(FLEET_CARDS, { ...card, balance });
}

export function listFleetCards(services: Pick<Services, 'store'>, merchantId: string, environment?: Environment): FleetCardRecord[] {
  merchantOr404(services, merchantId);
  return services.store.byIndex(FLEET_CARDS, 'by_merchant', merchantId).filter((c) => environment === undefined || c.environment === environment);
}

/** A card with its transaction log (control API). */
export function fleetCardLedger(services: Pick<Services, 'store'>, id: string) {
  return cardLedgerView(cardOr404(services, id), services.store.byIndex(FLEET_CARD_TRANSACTIONS, 'by_card', id));
}
