import { checkFlags } from '../../flag-check.js';
import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { PAYROLL } from './flags.js';
import { readPayrollFile } from './file.js';
import { runLines } from './show.js';
import type { CliIO } from '../../io.js';

type Flags = FlagsOf<typeof PAYROLL.create>;

export async function run(_a: string[], flags: Flags, io: CliIO): Promise<void> {
  // The same zod schema the emulator validates with: a bad flag or file fails here, before
  // anything is sent, with every problem named by line (payments.3.amount_cents: …).
  const [{ CreatePayrollRun }, { describeZodError }] = await Promise.all([
    import('../../../../contract/resources/payroll.js'),
    import('../../../../contract/zod-error.js'),
  ]);
  checkFlags(flags, { currency: CreatePayrollRun.shape.currency });
  const raw = readPayrollFile(flags.file, flags.currency, flags.note);
  const parsed = CreatePayrollRun.safeParse(raw);
  if (!parsed.success) throw new UsageError(`--file ${flags.file}: ${describeZodError(parsed.error)}`);
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.createPayrollRun(parsed.data, { idempotencyKey: flags.idempotencyKey }));
  ctx.out.result(data, `Payroll run created (${data.run.status})`, () => [
    ...runLines(ctx.out, data),
    '',
    `  Approve it: ${ctx.out.c.cyan(`svc payroll approve ${data.run.id}`)}`,
  ]);
}
