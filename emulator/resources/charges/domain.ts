import type { MerchantContext } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, invalid } from '../../errors.js';
import { createPayment, cycleKey, PAYMENTS, toPublicPayment, type PaymentRecord } from '../payments/domain.js';
import type { Payment } from '../../../contract/resources/payments.js';
import { getOwnMandate, type MandateRecord } from '../mandates/domain.js';
import { debitUser, userBalance, USERS } from '../users/domain.js';
import type { CreateCharge } from '../../../contract/resources/charges.js';
import { keyHeld } from '../../../contract/idempotency.js';
import { parseMicros } from '../../ids.js';

// Charges: a draw against a mandate, settled synchronously through createPayment (so the
// payment shows in the read, the list and the summary, credits the merchant's wallet and
// fires payment.completed / payment.failed). A decline or an empty customer wallet is a
// `failed` payment with 201, never an HTTP error: the merchant's billing run reads the status.


interface Decision {
  status: 'completed' | 'failed';
  /** The customer's wallet to debit when the charge completes (wallet rail). */
  userId?: string;
}

/**
 * What the charge does. `outcome` (test only) forces it without touching any wallet, like
 * simulate on a link. Otherwise the card saved at approval decides (test cards), and the
 * wallet rail needs the amount in the customer's wallet of this environment. A test mandate
 * without a saved card or bound wallet charges a simulated customer who always pays.
 */
function decide(ctx: MerchantContext, mandate: MandateRecord, amount: number, outcome: CreateCharge['outcome']): Decision {
  if (outcome) return { status: outcome };
  if (mandate.rail === 'card') return { status: !mandate.card || mandate.card.outcome === 'succeeds' ? 'completed' : 'failed' };
  if (!mandate.user_id) return { status: 'completed' };
  const user = ctx.services.store.get(USERS, mandate.user_id)!;
  return userBalance(user, ctx.environment, mandate.currency) >= amount ? { status: 'completed', userId: user.id } : { status: 'failed' };
}

/**
 * The payment this cycle key made on this mandate within the key's 24 h (rule 3), if any. A key
 * is first used when its payment is created; from 24 h after that it is free again and charges
 * anew, so the index may hold one payment per 24 h window: the newest is the one that counts.
 */
function heldCycle(ctx: MerchantContext, mandateId: string, key: string): PaymentRecord | undefined {
  let newest: PaymentRecord | undefined;
  for (const p of ctx.services.store.byIndex(PAYMENTS, 'by_mandate_cycle', cycleKey(mandateId, key))) {
    if (!newest || p.created_at > newest.created_at) newest = p;
  }
  return newest && keyHeld(Math.floor(parseMicros(newest.created_at) / 1000), ctx.services.clock.now()) ? newest : undefined;
}

export function createCharge(ctx: MerchantContext, input: CreateCharge, tx: Transaction): Payment {
  const mandate = getOwnMandate(ctx, input.mandate_id);
  // The cycle key is checked before the mandate's state: a retry of a charge that went
  // through returns it even if the mandate was revoked since.
  const earlier = heldCycle(ctx, mandate.id, input.idempotency_key);
  if (earlier) {
    if (earlier.amount !== input.amount_cents || earlier.currency !== input.currency) {
      throw new ApiError(
        'IDEMPOTENCY_CONFLICT',
        `idempotency_key "${input.idempotency_key}" already charged this mandate ${earlier.amount} ${earlier.currency} (payment ${earlier.id}) in the last 24 h; use a new key for a new cycle.`,
      );
    }
    return toPublicPayment(earlier);
  }
  if (input.outcome !== undefined && ctx.environment === 'live') throw invalid('outcome', 'is accepted for test mandates only');
  if (input.currency !== mandate.currency) throw invalid('currency', `must equal the mandate's currency (${mandate.currency})`);
  if (input.amount_cents > mandate.max_amount_cents) throw invalid('amount_cents', `must be at most the mandate's max_amount_cents (${mandate.max_amount_cents})`);
  if (mandate.status !== 'active') {
    const why = mandate.status === 'pending' ? 'is pending: the customer has not approved it yet' : 'was revoked';
    throw new ApiError('MANDATE_NOT_ACTIVE', `Mandate ${mandate.id} ${why}.`);
  }
  const decision = decide(ctx, mandate, input.amount_cents, input.outcome);
  const payment = createPayment(ctx.services, tx, {
    merchantId: ctx.merchant.id,
    environment: ctx.environment,
    amount: input.amount_cents,
    currency: mandate.currency,
    method: mandate.rail,
    status: decision.status,
    mandateId: mandate.id,
    idempotencyKey: input.idempotency_key,
  });
  // Checked above, so this cannot fail: the customer pays exactly what the merchant is credited.
  if (decision.userId) debitUser(ctx.services, tx, decision.userId, ctx.environment, mandate.currency, input.amount_cents, 'mandate_charge', payment.id);
  return toPublicPayment(payment);
}
