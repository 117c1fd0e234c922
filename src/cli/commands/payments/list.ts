import { checkFlags } from '../../flag-check.js';
import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { PAYMENTS } from './flags.js';
import { PAYMENT_COLUMNS, paymentRows, type Payment } from './show.js';
import type { CliIO } from '../../io.js';

type Flags = FlagsOf<typeof PAYMENTS.list>;

export async function run(_args: string[], flags: Flags, io: CliIO): Promise<void> {
  // zod (and the schema) load only when there is a value to check: the plain list stays fast.
  if (flags.before !== undefined) checkFlags(flags, { before: (await import('../../../../contract/resources/payments.js')).ListPaymentsQuery.shape.before });
  const ctx = apiContext(flags, io);
  if (!flags.all) {
    const { data } = ctx.traced(await ctx.api.listPayments({ status: flags.status, before: flags.before, limit: flags.limit }));
    ctx.out.result(data, 'Payments', () => [
      ...ctx.out.table(PAYMENT_COLUMNS, paymentRows(data.payments)),
      ...(data.next_before ? [ctx.out.c.dim(`  next page: --before ${data.next_before}`)] : []),
    ]);
    return;
  }
  // --all: follow the cursor until a page comes back empty (next_before null) or short (fewer
  // rows than asked: nothing older is left, so the empty page is not fetched). The progress line is for a person
  // watching (stderr is a terminal); scripts get only the result.
  const progress = io.stderr.isTTY && !io.env.CI;
  const payments: Payment[] = [];
  let before = flags.before;
  let pages = 0;
  const limit = flags.limit ?? 100;
  for (;;) {
    const { data } = await ctx.api.listPayments({ status: flags.status, before, limit });
    payments.push(...data.payments);
    pages++;
    if (progress) io.stderr.write(`\r${ctx.out.e.dim(`fetched ${payments.length} payments (${pages} page${pages === 1 ? '' : 's'})`)}`);
    if (!data.next_before || data.payments.length < limit) break;
    before = data.next_before;
  }
  if (progress) io.stderr.write('\n');
  const data = { payments, next_before: null };
  ctx.out.result(data, `Payments (${payments.length})`, () => ctx.out.table(PAYMENT_COLUMNS, paymentRows(payments)));
}
