import { checkFlags } from '../../flag-check.js';
import { apiContext, checkoutUrl } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { LINKS } from './flags.js';
import { parseJsonObject, splitList } from '../../values.js';
import { linkLines } from './show.js';
import type { CliIO } from '../../io.js';

type Flags = FlagsOf<typeof LINKS.create>;

const METHODS = ['card', 'momo', 'wallet'] as const;

export async function run(_args: string[], flags: Flags, io: CliIO): Promise<void> {
  if (flags.currency !== undefined || flags.expiresAt !== undefined) {
    const { CreatePaymentLink } = await import('../../../../contract/resources/payment-links.js');
    checkFlags(flags, { currency: CreatePaymentLink.shape.currency, expiresAt: CreatePaymentLink.shape.expires_at });
  }
  const methods = flags.methods === undefined ? undefined : splitList(flags.methods);
  for (const m of methods ?? []) if (!METHODS.includes(m as never)) throw new UsageError(`--methods: "${m}" is not one of card, momo, wallet.`);
  const ctx = apiContext(flags, io);
  const { data, checkoutUrl: answered } = ctx.traced(
    await ctx.api.createLink(
      {
        title: flags.title,
        amount: flags.amount,
        currency: flags.currency,
        description: flags.description,
        accepted_methods: methods as (typeof METHODS)[number][] | undefined,
        expires_at: flags.expiresAt,
        redirect_url: flags.redirectUrl,
        metadata: flags.metadata === undefined ? undefined : parseJsonObject('--metadata', flags.metadata),
        sub_merchant_id: flags.subMerchant,
      },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  ctx.out.result(data, 'Payment link created', () => linkLines(ctx.out, data, checkoutUrl(ctx.target, io.env, answered)));
}
