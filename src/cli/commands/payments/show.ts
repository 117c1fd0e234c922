import type { Output } from '../../output.js';
import { money } from '../../output.js';
import type { SvcApi } from '../../../client/api.js';

export type Payment = Awaited<ReturnType<SvcApi['getPayment']>>['data'];

/** A payment as a key-value block (get, simulate, charges create, trigger). */
export function paymentLines(out: Output, p: Payment): string[] {
  return out.kv([
    ['id', p.id],
    ['status', p.status],
    ['amount', money(p.amount, p.currency)],
    ['method', p.payment_method],
    ['environment', p.environment],
    ['link', p.payment_link_id ?? undefined],
    ['mandate', p.mandate_id ?? undefined],
    ['idempotency key', p.idempotency_key],
    ['created at', p.created_at],
  ]);
}

export function paymentRows(payments: Payment[]): unknown[][] {
  return payments.map((p) => [p.id, p.status, money(p.amount, p.currency), p.payment_method, p.payment_link_id ?? p.mandate_id ?? '', p.created_at]);
}

export const PAYMENT_COLUMNS = ['ID', 'STATUS', 'AMOUNT', 'METHOD', 'LINK / MANDATE', 'CREATED'];
