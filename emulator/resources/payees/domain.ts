import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, invalid, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { merchantOr404, type Environment, type MerchantRecord } from '../merchants/records.js';
import { checkPin, ownerPinSubject } from '../users/pin-guard.js';
import type { AddPayee, Payee, SetPayeeCaps } from '../../../contract/resources/payees.js';

// Payees: the destinations payouts may go to. Only the dashboard (the control API) creates,
// approves, revokes or re-caps them; approving and raising a cap need the owner's PIN.
// States: pending_approval → approved (PIN) → revoked. Revoked is final: the owner adds the
// payee again, which starts a fresh approval (docs/spec-gaps.md).

export const PAYEES = storedCollection('payees', { by_merchant: (p) => p.merchant_id });

export type PayeeRecord = RecordOf<'payees'>;

function toPublicPayee(p: PayeeRecord): Payee {
  return {
    id: p.id,
    merchant_id: p.merchant_id,
    environment: p.environment,
    name: p.name,
    currency: p.currency,
    per_payout_cap: p.per_payout_cap,
    daily_cap: p.daily_cap,
    status: p.status,
    created_at: p.created_at,
  };
}

/** The owner's PIN, with the shared lockout (422 PIN_INVALID, then 423 PIN_LOCKED). */
function requireOwnerPin(services: Pick<Services, 'store' | 'clock' | 'coverage'>, tx: Transaction, merchant: MerchantRecord, pin: string | undefined, action: string): void {
  if (pin === undefined) throw invalid('pin', `the owner's PIN is required to ${action}`);
  checkPin(services, tx, ownerPinSubject(merchant.id), merchant.owner_pin_hash, pin);
}

function checkCaps(perPayout: number, daily: number): void {
  if (perPayout > daily) throw invalid('per_payout_cap', `must not exceed daily_cap (${daily})`);
}

export function listPayees(services: Pick<Services, 'store'>, merchantId: string, environment?: Environment): Payee[] {
  merchantOr404(services, merchantId);
  return services.store
    .byIndex(PAYEES, 'by_merchant', merchantId)
    .filter((p) => environment === undefined || p.environment === environment)
    .map(toPublicPayee);
}

function getPayee(services: Pick<Services, 'store'>, id: string): PayeeRecord {
  const payee = services.store.get(PAYEES, id);
  if (!payee) throw notFound('payee');
  return payee;
}

/** A new payee waits for the owner's approval; no payout can reach it before. */
export function addPayee(services: Pick<Services, 'store' | 'stamps'>, tx: Transaction, input: AddPayee): Payee {
  merchantOr404(services, input.merchant_id);
  checkCaps(input.per_payout_cap, input.daily_cap);
  const payee = tx.put(PAYEES, {
    id: newId('payee'),
    merchant_id: input.merchant_id,
    environment: input.environment,
    name: input.name,
    currency: input.currency,
    per_payout_cap: input.per_payout_cap,
    daily_cap: input.daily_cap,
    status: 'pending_approval',
    created_at: services.stamps.next(),
  });
  return toPublicPayee(payee);
}

export function approvePayee(services: Pick<Services, 'store' | 'clock' | 'coverage'>, tx: Transaction, id: string, pin: string): Payee {
  const payee = getPayee(services, id);
  if (payee.status === 'revoked') throw new ApiError('INVALID_STATE', 'This payee was revoked; add it again to start a new approval.');
  requireOwnerPin(services, tx, merchantOr404(services, payee.merchant_id), pin, 'approve a payee');
  if (payee.status === 'approved') return toPublicPayee(payee);
  return toPublicPayee(tx.put(PAYEES, { ...payee, status: 'approved' }));
}

/** Revoking only takes authority away, so it needs no PIN. Revoking twice is a no-op. */
export function revokePayee(services: Pick<Services, 'store'>, tx: Transaction, id: string): Payee {
  const payee = getPayee(services, id);
  if (payee.status === 'revoked') return toPublicPayee(payee);
  return toPublicPayee(tx.put(PAYEES, { ...payee, status: 'revoked' }));
}

/** Lowering a cap is always allowed; raising either cap needs the owner's PIN. */
export function setPayeeCaps(services: Pick<Services, 'store' | 'clock' | 'coverage'>, tx: Transaction, id: string, input: SetPayeeCaps): Payee {
  const payee = getPayee(services, id);
  if (payee.status === 'revoked') throw new ApiError('INVALID_STATE', 'This payee was revoked; its caps can no longer change.');
  const perPayout = input.per_payout_cap ?? payee.per_payout_cap;
  const daily = input.daily_cap ?? payee.daily_cap;
  checkCaps(perPayout, daily);
  const raising = perPayout > payee.per_payout_cap || daily > payee.daily_cap;
  if (raising || input.pin !== undefined) requireOwnerPin(services, tx, merchantOr404(services, payee.merchant_id), input.pin, 'raise a payout cap');
  return toPublicPayee(tx.put(PAYEES, { ...payee, per_payout_cap: perPayout, daily_cap: daily }));
}
