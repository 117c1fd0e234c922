import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { FLEET_CARDS } from './flags.js';
import { money } from '../../output.js';
import { confirmLive } from '../../prompt.js';
import type { CliIO } from '../../io.js';

type Flags = FlagsOf<typeof FLEET_CARDS.redeem>;

export async function run(_a: string[], flags: Flags, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  await confirmLive(io, flags, ctx.target, `redeem ${flags.amount} (minor units) on fleet card ${flags.card}`);
  const { data } = ctx.traced(
    await ctx.api.redeemFleetCard(
      { fleet_card_id: flags.card, category: flags.category, amount_cents: flags.amount, reference: flags.reference, location_id: flags.location },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  const { transaction: t, card } = data;
  ctx.out.result(data, 'Fleet card redeemed', () =>
    ctx.out.kv([
      ['transaction', t.id],
      ['status', t.status],
      ['category', t.category],
      ['amount', money(t.amount_cents, t.currency)],
      ['card', card.id],
      ['card balance', money(card.balance, card.currency)],
      [`${card.spend_period} spend`, `${money(card.period_spent, card.currency)} of ${money(card.spend_limit, card.currency)}`],
      ['reference', t.reference ?? undefined],
      ['location', t.location_id ?? undefined],
      ['idempotency key', t.idempotency_key],
      ['created at', t.created_at],
    ]),
  );
}
