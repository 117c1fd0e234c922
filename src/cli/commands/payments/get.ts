import { apiContext } from '../../context.js';
import type { CommonFlags } from '../../options.js';
import { failOnFailed } from '../../values.js';
import { paymentLines } from './show.js';

export async function run([id]: string[], flags: CommonFlags & { failOnFailed?: boolean }): Promise<void> {
  const ctx = apiContext(flags);
  const { data } = ctx.traced(await ctx.api.getPayment(id));
  ctx.out.result(data, 'Payment', () => paymentLines(ctx.out, data));
  failOnFailed(flags, data.status);
}
