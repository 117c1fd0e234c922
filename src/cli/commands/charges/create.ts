import { checkFlags } from '../../flag-check.js';
import { CreateCharge } from '../../../../contract/resources/charges.js';
import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { CHARGES } from './flags.js';
import { money } from '../../output.js';
import { confirmLive } from '../../prompt.js';
import { failOnFailed } from '../../values.js';
import { paymentLines } from '../payments/show.js';
import type { CliIO } from '../../io.js';

type Flags = FlagsOf<typeof CHARGES.create>;

export async function run(_a: string[], flags: Flags, io: CliIO): Promise<void> {
  checkFlags(flags, { currency: CreateCharge.shape.currency });
  const ctx = apiContext(flags, io);
  await confirmLive(io, flags, ctx.target, `charge ${money(flags.amount, flags.currency)} to mandate ${flags.mandate}`);
  const { data } = ctx.traced(
    await ctx.api.createCharge(
      { mandate_id: flags.mandate, amount_cents: flags.amount, currency: flags.currency, outcome: flags.outcome },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  ctx.out.result(data, `Charge ${data.status}`, () => paymentLines(ctx.out, data));
  failOnFailed(flags, data.status);
}
