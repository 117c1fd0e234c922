import { z } from 'zod';
import { IsoTimestamp, MinorUnits, NOT_BLANK, WalletCurrency } from '../common.js';

export const PAYROLL_MAX_LINES = 500;

export const PayrollLineInput = z.strictObject({
  external_ref: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255)
    .meta({ ...NOT_BLANK, description: "The merchant's own payee id, for correlation; trimmed, unique within the run after trimming" }),
  payee_phone: z
    .string()
    .min(1)
    .max(32)
    .meta({ description: 'Matched to a service user by its normalized form (E.164; spaces, dots, dashes and brackets ignored, a leading 0 means +231), best effort: any text is accepted, and one that matches no user makes the line needs_attention at approval, never a rejected run' }),
  label: z.string().max(255).optional().meta({ description: 'Defaults to external_ref' }),
  amount_cents: MinorUnits,
});

export const CreatePayrollRun = z
  .strictObject({
    currency: WalletCurrency,
    note: z.string().max(1000).optional(),
    payments: z
      .array(PayrollLineInput)
      .min(1, 'must hold at least one line')
      .max(PAYROLL_MAX_LINES, `must hold at most ${PAYROLL_MAX_LINES} lines`)
      .refine((lines) => new Set(lines.map((l) => l.external_ref)).size === lines.length, 'external_ref must be unique within a run')
      // JSON Schema's uniqueItems compares whole items; this extension names the field that must differ.
      .meta({ description: 'The lines; no two may have the same external_ref (`x-unique-item-properties`)', 'x-unique-item-properties': ['external_ref'] }),
  })
  .meta({ id: 'CreatePayrollRun' });

/** pending_approval → completed | partial | failed (docs/spec-gaps.md). */
export const PayrollRunStatus = z.enum(['pending_approval', 'completed', 'partial', 'failed']);
/** pending → paid | failed (wallet short) | needs_attention (phone matched no user). */
export const PayrollLineStatus = z.enum(['pending', 'paid', 'failed', 'needs_attention']);

export const PayrollRun = z
  .object({
    id: z.string(),
    status: PayrollRunStatus,
    currency: WalletCurrency,
    note: z.string().nullable(),
    line_count: z.int(),
    total_amount_cents: z.int(),
    paid_count: z.int(),
    paid_amount_cents: z.int(),
    environment: z.enum(['test', 'live']),
    created_at: IsoTimestamp,
    approved_at: IsoTimestamp.nullable(),
    completed_at: IsoTimestamp.nullable(),
  })
  .meta({ id: 'PayrollRun' });

export const PayrollLine = z
  .object({
    id: z.string(),
    external_ref: z.string(),
    payee_phone: z.string(),
    label: z.string(),
    amount_cents: z.int(),
    status: PayrollLineStatus,
    failure_reason: z.enum(['no_matching_user', 'insufficient_funds']).nullable(),
    paid_at: IsoTimestamp.nullable(),
  })
  .meta({ id: 'PayrollLine' });

export const PayrollRunWithLines = z
  .object({ run: PayrollRun, payments: z.array(PayrollLine), approval_url: z.string() })
  .meta({ id: 'PayrollRunWithLines' });

export const PayrollRunIdParams = z.object({ id: z.string().min(1) });

export const PayrollApproval = z.strictObject({ pin: z.string().min(1).max(12) });

export type CreatePayrollRun = z.infer<typeof CreatePayrollRun>;
export type PayrollRunPublic = z.infer<typeof PayrollRun>;
export type PayrollLinePublic = z.infer<typeof PayrollLine>;
