import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { LINKS } from './flags.js';
import { failOnFailed } from '../../values.js';
import { paymentLines } from '../payments/show.js';
import type { CliIO } from '../../io.js';

type Flags = FlagsOf<typeof LINKS.simulate>;

export async function run([id]: string[], flags: Flags, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  if (ctx.target.environment === 'live') throw new UsageError('simulate works with test keys only (a live link cannot be simulated).');
  const { data } = ctx.traced(await ctx.api.simulateLink(id, { outcome: flags.outcome, method: flags.method, amount: flags.amount }, { idempotencyKey: flags.idempotencyKey }));
  ctx.out.result(data, `Payment ${data.status}`, () => paymentLines(ctx.out, data));
  failOnFailed(flags, data.status);
}
