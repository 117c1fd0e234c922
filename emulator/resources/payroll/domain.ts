import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, InsufficientFundsError, notFound } from '../../errors.js';
import { isoMicros, newId } from '../../ids.js';
import { MERCHANTS } from '../merchants/records.js';
import { emitEvent } from '../events/outbox.js';
import { debit } from '../wallets/domain.js';
import { creditUser, findUserByPhone } from '../users/domain.js';
import { checkPin, ownerPinSubject } from '../users/pin-guard.js';
import type { CreatePayrollRun, PayrollLinePublic, PayrollRunPublic } from '../../../contract/resources/payroll.js';
import { findOwn } from '../merchants/own.js';

// Payroll runs. The API creates a run in `pending_approval`; only the business owner's PIN,
// on the approval page or through the control API (`svc payroll approve`), executes it —
// never an API key. Execution pays line by line from the merchant's wallet of the run's
// environment and currency into each matched user's wallet, in the order the lines were
// sent: a line the wallet cannot cover fails alone, a phone that matches no user is left
// `needs_attention`. The run then ends completed (every line paid), partial (some paid) or
// failed (none paid), and emits payroll_run.<status> with the run and every line.

export const PAYROLL_RUNS = storedCollection('payroll_runs');

type LineRecord = PayrollLinePublic;

export type PayrollRunRecord = RecordOf<'payroll_runs'>;

type PayrollRunView = {
  run: PayrollRunPublic;
  payments: PayrollLinePublic[];
  approval_url: string;
};

const isoNow = (services: Pick<Services, 'clock'>) => isoMicros(services.clock.now());
const sum = (lines: LineRecord[]) => lines.reduce((total, l) => total + l.amount_cents, 0);

const payrollApprovalUrl = (services: Pick<Services, 'config'>, runId: string) => `${services.config.checkoutUrl}/payroll-approval/${runId}`;

function toPublicRun(r: PayrollRunRecord): PayrollRunPublic {
  const paid = r.lines.filter((l) => l.status === 'paid');
  return {
    id: r.id,
    status: r.status,
    currency: r.currency,
    note: r.note,
    line_count: r.lines.length,
    total_amount_cents: sum(r.lines),
    paid_count: paid.length,
    paid_amount_cents: sum(paid),
    environment: r.environment,
    created_at: r.created_at,
    approved_at: r.approved_at,
    completed_at: r.completed_at,
  };
}

export const viewRun = (services: Pick<Services, 'config'>, r: PayrollRunRecord): PayrollRunView => ({
  run: toPublicRun(r),
  payments: r.lines.map((l) => ({ ...l })),
  approval_url: payrollApprovalUrl(services, r.id),
});

export function createPayrollRun(ctx: MerchantContext, input: CreatePayrollRun, tx: Transaction): PayrollRunView {
  const run = tx.put(PAYROLL_RUNS, {
    id: newId('prun'),
    merchant_id: ctx.merchant.id,
    environment: ctx.environment,
    status: 'pending_approval',
    currency: input.currency,
    note: input.note ?? null,
    lines: input.payments.map((l) => ({
      id: newId('pln'),
      external_ref: l.external_ref,
      payee_phone: l.payee_phone,
      label: l.label ?? l.external_ref,
      amount_cents: l.amount_cents,
      status: 'pending' as const,
      failure_reason: null,
      paid_at: null,
    })),
    created_at: ctx.services.stamps.next(),
    approved_at: null,
    completed_at: null,
  });
  return viewRun(ctx.services, run);
}

export function getOwnRun(ctx: MerchantContext, id: string): PayrollRunRecord {
  const run = findOwn<PayrollRunRecord>(ctx, PAYROLL_RUNS, id);
  if (!run) throw notFound('payroll run');
  return run;
}

/** For the approval page: the run behind an approval URL, whoever asks. */
export function findRunForApproval(services: Pick<Services, 'store'>, runId: string): PayrollRunRecord | undefined {
  return services.store.get(PAYROLL_RUNS, runId);
}

function payLine(services: Services, tx: Transaction, run: PayrollRunRecord, line: LineRecord, at: string): LineRecord {
  const user = findUserByPhone(services, line.payee_phone);
  if (!user) return { ...line, status: 'needs_attention', failure_reason: 'no_matching_user' };
  try {
    debit(services, tx, { merchantId: run.merchant_id, environment: run.environment, currency: run.currency }, line.amount_cents, 'payroll_line', line.id);
  } catch (err) {
    // The refused debit wrote nothing; the rest of the run goes on.
    if (err instanceof InsufficientFundsError) return { ...line, status: 'failed', failure_reason: 'insufficient_funds' };
    throw err;
  }
  creditUser(services, tx, user.id, run.environment, run.currency, line.amount_cents, 'payroll_line', line.id);
  return { ...line, status: 'paid', paid_at: at };
}

/**
 * The owner approves with their PIN; the run executes at once (test and live alike) and
 * the result is returned. Wrong PINs count toward the owner's lockout (users/pin-guard.ts).
 */
export function approvePayrollRun(services: Services, tx: Transaction, runId: string, pin: string): { run: PayrollRunPublic; payments: PayrollLinePublic[] } {
  const run = findRunForApproval(services, runId);
  if (!run) throw notFound('payroll run');
  if (run.status !== 'pending_approval') throw new ApiError('INVALID_STATE', `Payroll run ${run.id} was already approved; it is ${run.status}.`);
  const owner = services.store.get(MERCHANTS, run.merchant_id);
  checkPin(services, tx, ownerPinSubject(run.merchant_id), owner?.owner_pin_hash, pin);

  const at = isoNow(services);
  const lines = run.lines.map((line) => payLine(services, tx, run, line, at));
  const paid = lines.filter((l) => l.status === 'paid').length;
  const status = paid === lines.length ? 'completed' : paid > 0 ? 'partial' : 'failed';
  const done = tx.put(PAYROLL_RUNS, { ...run, lines, status, approved_at: at, completed_at: at });
  const result = { run: toPublicRun(done), payments: done.lines.map((l) => ({ ...l })) };
  emitEvent(services, tx, { merchantId: run.merchant_id, environment: run.environment }, `payroll_run.${status}`, result);
  return result;
}
