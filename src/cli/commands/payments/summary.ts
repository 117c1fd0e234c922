import { checkFlags } from '../../flag-check.js';
import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { PAYMENTS } from './flags.js';
import { money } from '../../output.js';
import type { CliIO } from '../../io.js';

export async function run(_args: string[], flags: FlagsOf<typeof PAYMENTS.summary>, io: CliIO): Promise<void> {
  if (flags.since !== undefined) checkFlags(flags, { since: (await import('../../../../contract/resources/payments.js')).SummaryQuery.shape.since });
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.paymentSummary({ since: flags.since }));
  ctx.out.result(data, `Payment summary${data.since ? ` since ${data.since}` : ''}`, () =>
    ctx.out.table(
      ['CURRENCY', 'COMPLETED', 'COMPLETED AMOUNT', 'FAILED', 'PENDING', 'TOTAL'],
      data.summary.map((s) => [s.currency, s.completed_count, money(s.completed_amount, s.currency), s.failed_count, s.pending_count, s.total_count]),
    ),
  );
}
