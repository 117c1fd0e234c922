import { checkFlags } from '../../flag-check.js';
import { apiContext } from '../../context.js';
import type { CommonFlags } from '../../options.js';
import { PAYMENT_COLUMNS, paymentRows, type Payment } from './show.js';

interface Flags extends CommonFlags {
  status?: 'pending' | 'completed' | 'failed';
  before?: string;
  limit?: number;
  all?: boolean;
}

export async function run(_args: string[], flags: Flags): Promise<void> {
  // zod (and the schema) load only when there is a value to check: the plain list stays fast.
  if (flags.before !== undefined) checkFlags(flags, { before: (await import('../../../../emulator/resources/payments/schema.js')).ListPaymentsQuery.shape.before });
  const ctx = apiContext(flags);
  if (!flags.all) {
    const { data } = ctx.traced(await ctx.api.listPayments({ status: flags.status, before: flags.before, limit: flags.limit }));
    ctx.out.result(data, 'Payments', () => [
      ...ctx.out.table(PAYMENT_COLUMNS, paymentRows(data.payments)),
      ...(data.next_before ? [ctx.out.c.dim(`  more: --before ${data.next_before}`)] : []),
    ]);
    return;
  }
  // --all: follow the cursor until next_before is null. The progress line is for a person
  // watching (stderr is a terminal); scripts get only the result.
  const progress = process.stderr.isTTY && !process.env.CI;
  const payments: Payment[] = [];
  let before = flags.before;
  let pages = 0;
  for (;;) {
    const { data } = await ctx.api.listPayments({ status: flags.status, before, limit: flags.limit ?? 100 });
    payments.push(...data.payments);
    pages++;
    if (progress) process.stderr.write(`\r${ctx.out.e.dim(`fetched ${payments.length} payments (${pages} page${pages === 1 ? '' : 's'})`)}`);
    if (!data.next_before) break;
    before = data.next_before;
  }
  if (progress) process.stderr.write('\n');
  const data = { payments, next_before: null };
  ctx.out.result(data, `Payments (${payments.length})`, () => ctx.out.table(PAYMENT_COLUMNS, paymentRows(payments)));
}
