import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { z } from 'zod';
import type { MerchantContext, Services } from '../../services.js';
import type { IndexView, Transaction } from '../../store/store.js';
import { notFound } from '../../errors.js';
import { newId, newUuid, normalizeIso, parseMicros } from '../../ids.js';
import type { Environment } from '../merchants/records.js';
import { emitEvent } from '../events/outbox.js';
import { PAYMENT_LINKS, toPublicLink, type LinkRecord } from '../payment-links/domain.js';
import type { ListPaymentsQuery, Payment, SummaryQuery } from '../../../contract/resources/payments.js';
import type { EventData } from '../../../contract/events.js';
import { findOwn } from '../merchants/own.js';
import { addMoney } from '../../money.js';
import { credit } from '../wallets/domain.js';

// Payments: link payments and mandate charges share one record, one list and one summary.
// `settlePayment` is the production fan-out every path goes through — simulate, the checkout
// pages and charges — so records, link totals, wallets and webhooks cannot disagree.

/** A charge's cycle: its mandate and the merchant's idempotency_key (the by_mandate_cycle index key). */
export const cycleKey = (mandateId: string, key: string) => `${mandateId}\n${key}`;
export const PAYMENTS = storedCollection('payments', {
  by_scope: (p) => scopeKey(p.merchant_id, p.environment),
  // A charge's cycle: one payment per (mandate, merchant idempotency key) (charges/domain.ts).
  by_mandate_cycle: (p) => (p.mandate_id ? cycleKey(p.mandate_id, p.idempotency_key) : undefined),
});

export type PaymentRecord = RecordOf<'payments'>;

export const scopeKey = (merchantId: string, environment: string) => `${merchantId}:${environment}`;

export function toPublicPayment(p: PaymentRecord): Payment {
  return {
    id: p.id,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    payment_method: p.payment_method,
    environment: p.environment,
    mandate_id: p.mandate_id,
    payment_link_id: p.payment_link_id,
    idempotency_key: p.idempotency_key,
    created_at: p.created_at,
  };
}

interface NewPayment {
  merchantId: string;
  environment: Environment;
  amount: number;
  currency: string;
  method: Payment['payment_method'];
  status: Payment['status'];
  link?: LinkRecord;
  mandateId?: string;
  subMerchantId?: string | null;
  idempotencyKey?: string;
}

type SettleServices = Pick<Services, 'store' | 'stamps' | 'clock' | 'hooks' | 'coverage'>;

/** Creates a payment; if it is already final, applies its effects (see `applyOutcome`). */
export function createPayment(services: SettleServices, tx: Transaction, input: NewPayment): PaymentRecord {
  const payment = tx.put(PAYMENTS, {
    id: newId('pay'),
    merchant_id: input.merchantId,
    environment: input.environment,
    amount: input.amount,
    currency: input.currency,
    status: 'pending',
    payment_method: input.method,
    mandate_id: input.mandateId ?? null,
    payment_link_id: input.link?.id ?? null,
    sub_merchant_id: input.subMerchantId ?? input.link?.sub_merchant_id ?? null,
    idempotency_key: input.idempotencyKey ?? newUuid(),
    created_at: services.stamps.next(),
  });
  return input.status === 'pending' ? payment : applyOutcome(services, tx, payment, input.status);
}

/**
 * Moves a pending payment to its final status: updates the link's totals (settled payments
 * only), runs the settlement hooks (wallet credit) and appends the webhook event.
 */
export function applyOutcome(services: SettleServices, tx: Transaction, payment: PaymentRecord, outcome: 'completed' | 'failed'): PaymentRecord {
  const settled = tx.put(PAYMENTS, { ...payment, status: outcome });
  let link: LinkRecord | undefined;
  if (settled.payment_link_id) {
    link = services.store.get(PAYMENT_LINKS, settled.payment_link_id)!;
    if (outcome === 'completed') {
      link = tx.put(PAYMENT_LINKS, {
        ...link,
        total_collected: addMoney(`payment link ${link.id}'s total_collected`, link.total_collected, settled.amount),
        payment_count: link.payment_count + 1,
        closed: link.amount !== null, // a fixed-amount link is paid once; pay-any-amount links stay open
      });
    }
  }
  // A completed payment credits the merchant's wallet (or the sub-merchant's the link names) in
  // the same transaction, whatever settled it: simulate, a checkout page, a charge, MoMo clearing.
  if (outcome === 'completed') {
    const owner = settled.sub_merchant_id ?? settled.merchant_id;
    credit(services, tx, { merchantId: owner, environment: settled.environment, currency: settled.currency }, settled.amount, 'payment', settled.id);
  }
  const data: EventData<'payment.completed'> = { payment: toPublicPayment(settled) };
  if (link) data.link = toPublicLink(link, services.clock.now());
  emitEvent(services, tx, { merchantId: settled.merchant_id, environment: settled.environment }, `payment.${outcome}`, data);
  services.coverage.signal(`${link ? 'link' : 'charge'}${outcome === 'completed' ? 'Completed' : 'Failed'}`);
  return settled;
}


export function getOwnPayment(ctx: MerchantContext, id: string): PaymentRecord {
  const p = findOwn<PaymentRecord>(ctx, PAYMENTS, id);
  if (!p) throw notFound('payment');
  return p;
}

/** The payments of the caller's scope, oldest first, without copying them (a merchant may have 100k). */
const scopeRows = (ctx: MerchantContext) => ctx.services.store.viewIndex(PAYMENTS, 'by_scope', scopeKey(ctx.merchant.id, ctx.environment));

/** First position whose created_at is at or after `micros` (rows are in created_at order). */
function firstAtOrAfter(rows: IndexView<PaymentRecord>, micros: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (parseMicros(rows.at(mid).created_at) < micros) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Newest first. Rows are stored oldest first, so walk backwards from the cursor. */
export function listPayments(ctx: MerchantContext, query: z.infer<typeof ListPaymentsQuery>) {
  const rows = scopeRows(ctx);
  const end = query.before === undefined ? rows.length : firstAtOrAfter(rows, parseMicros(query.before)); // exclusive
  const page: Payment[] = [];
  let i = end - 1;
  for (; i >= 0 && page.length < query.limit; i--) {
    if (!query.status || rows.at(i).status === query.status) page.push(toPublicPayment(rows.at(i)));
  }
  // The spec: next_before is the last row's created_at. Every non-empty page carries it (the
  // last one too: the next call answers an empty page, which ends paging); an empty page has null.
  return { payments: page, next_before: page.length > 0 ? page[page.length - 1].created_at : null };
}

export function summarize(ctx: MerchantContext, query: z.infer<typeof SummaryQuery>) {
  const since = query.since === undefined ? null : query.since.length === 10 ? `${query.since}T00:00:00.000000Z` : normalizeIso(query.since);
  const byCurrency = new Map<string, { currency: string; completed_count: number; completed_amount: number; failed_count: number; pending_count: number; total_count: number }>();
  // Rows are in created_at order: skip to `since` by binary search instead of parsing every
  // row's timestamp (the roll-up stays one pass, but a cheap one).
  const rows = scopeRows(ctx);
  for (let i = since === null ? 0 : firstAtOrAfter(rows, parseMicros(since)); i < rows.length; i++) {
    const p = rows.at(i);
    let row = byCurrency.get(p.currency);
    if (!row) byCurrency.set(p.currency, (row = { currency: p.currency, completed_count: 0, completed_amount: 0, failed_count: 0, pending_count: 0, total_count: 0 }));
    row.total_count++;
    if (p.status === 'completed') {
      row.completed_count++;
      row.completed_amount += p.amount;
    } else if (p.status === 'failed') row.failed_count++;
    else row.pending_count++;
  }
  return { summary: [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)), since };
}
