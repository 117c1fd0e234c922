import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { GIFT_CARDS } from './flags.js';
import { money } from '../../output.js';
import { confirmLive } from '../../prompt.js';
import type { CliIO } from '../../io.js';

type Flags = FlagsOf<typeof GIFT_CARDS.redeem>;

export async function run(_a: string[], flags: Flags, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  await confirmLive(io, flags, ctx.target, `redeem ${flags.amount} (minor units) from gift-card wallet ${flags.wallet}`);
  const { data } = ctx.traced(
    await ctx.api.redeemGiftCard(
      { merchant_wallet_id: flags.wallet, amount: flags.amount, reference: flags.reference, location_id: flags.location },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  const { transaction: t, wallet } = data;
  ctx.out.result(data, 'Gift card redeemed', () =>
    ctx.out.kv([
      ['transaction', t.id],
      ['status', t.status],
      ['amount', money(t.amount, t.currency)],
      ['wallet', wallet.id],
      ['wallet balance', money(wallet.balance, wallet.currency)],
      ['reference', t.reference ?? undefined],
      ['location', t.location_id ?? undefined],
      ['idempotency key', t.idempotency_key],
      ['created at', t.created_at],
    ]),
  );
}
