import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { PAYMENTS } from './flags.js';
import { failOnFailed } from '../../values.js';
import { paymentLines } from './show.js';
import type { CliIO } from '../../io.js';

export async function run([id]: string[], flags: FlagsOf<typeof PAYMENTS.get>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.getPayment(id));
  ctx.out.result(data, 'Payment', () => paymentLines(ctx.out, data));
  failOnFailed(flags, data.status);
}
