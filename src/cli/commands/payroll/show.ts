import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { PAYROLL } from './flags.js';
import { money, type Output } from '../../output.js';
import type { SvcApi } from '../../../client/api.js';
import type { CliIO } from '../../io.js';

export type RunWithLines = Awaited<ReturnType<SvcApi['getPayrollRun']>>['data'];

export function runLines(out: Output, { run, payments, approval_url }: RunWithLines): string[] {
  return [
    ...out.kv([
      ['id', run.id],
      ['status', run.status],
      ['total', `${money(run.total_amount_cents, run.currency)} in ${run.line_count} lines`],
      ['paid', `${money(run.paid_amount_cents, run.currency)} in ${run.paid_count} lines`],
      ['note', run.note ?? undefined],
      ['approval url', run.status === 'pending_approval' ? approval_url : undefined],
      ['created at', run.created_at],
    ]),
    '',
    ...out.table(
      ['EXTERNAL REF', 'PHONE', 'LABEL', 'AMOUNT', 'STATUS', 'REASON'],
      payments.map((l) => [l.external_ref, l.payee_phone, l.label, money(l.amount_cents, run.currency), l.status, l.failure_reason ?? '']),
    ),
  ];
}

export async function get([id]: string[], flags: FlagsOf<typeof PAYROLL.get>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.getPayrollRun(id));
  ctx.out.result(data, 'Payroll run', () => runLines(ctx.out, data));
}
