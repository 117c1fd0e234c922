import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { InsufficientFundsError, invalid, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { credit, debit } from '../wallets/domain.js';
import { PAYEES, type PayeeRecord } from '../payees/domain.js';
import { scopeKey } from '../payments/domain.js';
import { type CreatePayout, type ListPayoutsQuery, type Payout } from '../../../contract/resources/payouts.js';
import type { z } from 'zod';
import { findOwn } from '../merchants/own.js';
import { providerOutage } from '../../faults/provider.js';
import { recordWork } from '../../scheduler/work.js';

// Payouts: checked against the payee (approved, same currency, per-payout and daily caps),
// debited from the merchant's wallet the moment they are accepted, then answered by the
// emulated provider after `config.payoutResolveMs` of emulator time. A `failed` answer
// credits the debit back (reason payout_reversal). No webhook: clients poll GET.
//
// The provider's answer is fixed at acceptance (the next queued outcome from the control
// API, else `config.payoutOutcome`) and stored on the record with its due time: the scheduler
// reads `resolves_at_ms` of every processing payout (`payoutResolution`), so a restart, a reset
// or a restore finds them all again with nothing to re-arm.

export const PAYOUTS = storedCollection('payouts', {
  by_scope: (p) => scopeKey(p.merchant_id, p.environment),
  by_payee: (p) => p.payee_id,
  /** Payouts waiting for the provider's answer: what the scheduler reads at start. */
  processing: (p) => (p.status === 'processing' ? 'processing' : undefined),
});
/** Control-API queue of outcomes for the next payouts (one record). */
export const PAYOUT_PROVIDER = storedCollection('payout_provider');
const OUTCOME_QUEUE_ID = 'next_outcomes';

type Outcome = 'completed' | 'failed';

export type PayoutRecord = RecordOf<'payouts'>;

export function toPublicPayout(p: PayoutRecord): Payout {
  return {
    id: p.id,
    payee_id: p.payee_id,
    amount_cents: p.amount_cents,
    currency: p.currency,
    status: p.status,
    external_ref: p.external_ref,
    initiated_at: p.initiated_at,
    resolved_at: p.resolved_at,
    environment: p.environment,
  };
}

/** UTC calendar day (YYYY-MM-DD) of a time on the emulator clock. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * What the payee has already been sent today (UTC day of the emulator clock): processing and
 * completed payouts count, failed ones do not (their money came back).
 */
function payeeDayTotal(services: Pick<Services, 'store'>, payeeId: string, day: string): number {
  let total = 0;
  for (const p of services.store.byIndex(PAYOUTS, 'by_payee', payeeId)) {
    if (p.status !== 'failed' && utcDay(p.initiated_at_ms) === day) total += p.amount_cents;
  }
  return total;
}

function checkPayee(ctx: MerchantContext, input: CreatePayout): PayeeRecord {
  const payee = findOwn<PayeeRecord>(ctx, PAYEES, input.payee_id);
  // Absent, another merchant's or the other environment's: 404 as for every absent resource
  // (a charge's mandate_id does the same); only a payee that exists can be refused for its state.
  if (!payee) throw notFound('payee');
  if (payee.status === 'revoked') throw invalid('payee_id', 'this payee has been revoked');
  if (payee.status !== 'approved') throw invalid('payee_id', 'this payee has not been approved by the business owner yet');
  if (input.currency !== payee.currency) throw invalid('currency', `must equal the payee's currency (${payee.currency})`);
  if (input.amount_cents > payee.per_payout_cap) throw invalid('amount_cents', `exceeds the payee's per-payout cap of ${payee.per_payout_cap}`);
  const sent = payeeDayTotal(ctx.services, payee.id, utcDay(ctx.services.clock.now()));
  if (sent + input.amount_cents > payee.daily_cap) {
    throw invalid('amount_cents', `would take today's total to this payee to ${sent + input.amount_cents}, over the daily cap of ${payee.daily_cap} (${sent} already sent today, UTC)`);
  }
  return payee;
}

function nextOutcome(services: Pick<Services, 'store' | 'config'>, tx: Transaction): Outcome {
  const queue = services.store.get(PAYOUT_PROVIDER, OUTCOME_QUEUE_ID);
  if (!queue || queue.outcomes.length === 0) return services.config.payoutOutcome;
  const [first, ...rest] = queue.outcomes;
  tx.put(PAYOUT_PROVIDER, { id: OUTCOME_QUEUE_ID, outcomes: rest });
  return first;
}

export function queueOutcomes(services: Pick<Services, 'store' | 'config'>, tx: Transaction, outcomes: Outcome[]) {
  tx.put(PAYOUT_PROVIDER, { id: OUTCOME_QUEUE_ID, outcomes });
  return providerState(services);
}

export function providerState(services: Pick<Services, 'store' | 'config'>) {
  return {
    resolve_ms: services.config.payoutResolveMs,
    default_outcome: services.config.payoutOutcome,
    queued_outcomes: services.store.get(PAYOUT_PROVIDER, OUTCOME_QUEUE_ID)?.outcomes ?? [],
  };
}

/** Accepts a payout: checks, debits the wallet (422 VALIDATION_ERROR "amount_cents: insufficient funds…") and schedules the answer. */
export function createPayout(ctx: MerchantContext, input: CreatePayout, tx: Transaction): Payout {
  const payee = checkPayee(ctx, input);
  const id = newId('po');
  try {
    debit(ctx.services, tx, { merchantId: ctx.merchant.id, environment: ctx.environment, currency: payee.currency }, input.amount_cents, 'payout', id);
  } catch (err) {
    // The spec lists payout rejections as VALIDATION_ERROR; the message names the field.
    if (err instanceof InsufficientFundsError) throw invalid('amount_cents', err.message);
    throw err;
  }
  const payout = tx.put(PAYOUTS, {
    id,
    merchant_id: ctx.merchant.id,
    environment: ctx.environment,
    payee_id: payee.id,
    amount_cents: input.amount_cents,
    currency: payee.currency,
    status: 'processing',
    external_ref: input.external_ref ?? null,
    initiated_at: ctx.services.stamps.next(),
    initiated_at_ms: ctx.services.clock.now(),
    resolved_at: null,
    provider_outcome: nextOutcome(ctx.services, tx),
    resolves_at_ms: ctx.services.clock.now() + ctx.services.config.payoutResolveMs,
  });
  // A provider that answers at once (--payout-delay 0) resolves inside the acceptance; any
  // other answer is due at resolves_at_ms (`payoutResolution`).
  if (ctx.services.config.payoutResolveMs <= 0) return toPublicPayout(settle(ctx.services, tx, payout));
  return toPublicPayout(payout);
}

function settle(services: Pick<Services, 'store' | 'stamps' | 'coverage'>, tx: Transaction, payout: PayoutRecord): PayoutRecord {
  const resolved = tx.put(PAYOUTS, { ...payout, status: payout.provider_outcome, resolved_at: services.stamps.next() });
  if (resolved.status === 'failed') {
    credit(services, tx, { merchantId: payout.merchant_id, environment: payout.environment, currency: payout.currency }, payout.amount_cents, 'payout_reversal', payout.id);
    services.coverage.signal('payoutReversed');
  }
  return resolved;
}

/** The provider's answer; a payout that is gone or already final is left alone. */
function resolvePayout(services: Pick<Services, 'store' | 'stamps' | 'coverage'>, id: string): void {
  services.store.transaction((tx) => {
    const payout = services.store.get(PAYOUTS, id);
    if (payout?.status === 'processing') settle(services, tx, payout);
  });
}

/**
 * The provider's answer as timed work: every processing payout is due at its resolves_at_ms
 * (an acceptance that rolled back left no record, so nothing fires for it). A provider outage
 * (an injected fault) holds the answer until the outage ends.
 */
export const payoutResolution = recordWork({
  name: 'payout resolution',
  collection: PAYOUTS,
  waiting: { index: 'processing', key: 'processing' },
  dueAt: (p) => (p.status === 'processing' ? p.resolves_at_ms : undefined),
  run(services, payout) {
    const until = providerOutage(services, 'payouts', `payout ${payout.id}`);
    if (until !== undefined) return { retryAt: until };
    resolvePayout(services, payout.id);
  },
});

export function getOwnPayout(ctx: MerchantContext, id: string): PayoutRecord {
  const payout = findOwn<PayoutRecord>(ctx, PAYOUTS, id);
  if (!payout) throw notFound('payout');
  return payout;
}

/** Newest first; `total` counts every payout of the key's merchant and environment. */
export function listPayouts(ctx: MerchantContext, query: z.infer<typeof ListPayoutsQuery>) {
  const rows = ctx.services.store.byIndex(PAYOUTS, 'by_scope', scopeKey(ctx.merchant.id, ctx.environment));
  const { limit, offset } = query;
  const page: Payout[] = [];
  for (let i = rows.length - 1 - offset; i >= 0 && page.length < limit; i--) page.push(toPublicPayout(rows[i]));
  return { payouts: page, total: rows.length, limit, offset };
}
