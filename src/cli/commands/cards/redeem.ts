import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { CARDS } from './flags.js';
import { money } from '../../output.js';
import { confirmLive } from '../../prompt.js';
import type { CliIO } from '../../io.js';

type Transaction = { id: string; status: string; reference?: string | null; location_id?: string | null; idempotency_key: string; created_at: string };

/** A redemption's answer in lines: the transaction's own fields around what the card adds (`card`). */
const redemptionLines = (t: Transaction, card: [string, unknown][]): [string, unknown][] => [
  ['transaction', t.id],
  ['status', t.status],
  ...card,
  ['reference', t.reference ?? undefined],
  ['location', t.location_id ?? undefined],
  ['idempotency key', t.idempotency_key],
  ['created at', t.created_at],
];

export async function gift(_a: string[], flags: FlagsOf<typeof CARDS.gift>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  await confirmLive(io, flags, ctx.target, `redeem ${flags.amount} (minor units) from gift-card wallet ${flags.wallet}`);
  const body = { merchant_wallet_id: flags.wallet, amount: flags.amount, reference: flags.reference, location_id: flags.location };
  const { data } = ctx.traced(await ctx.api.redeemGiftCard(body, { idempotencyKey: flags.idempotencyKey }));
  const { transaction: t, wallet } = data;
  ctx.out.result(data, 'Gift card redeemed', () =>
    ctx.out.kv(redemptionLines(t, [['amount', money(t.amount, t.currency)], ['wallet', wallet.id], ['wallet balance', money(wallet.balance, wallet.currency)]])),
  );
}

export async function fleet(_a: string[], flags: FlagsOf<typeof CARDS.fleet>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  await confirmLive(io, flags, ctx.target, `redeem ${flags.amount} (minor units) on fleet card ${flags.card}`);
  const body = { fleet_card_id: flags.card, category: flags.category, amount_cents: flags.amount, reference: flags.reference, location_id: flags.location };
  const { data } = ctx.traced(await ctx.api.redeemFleetCard(body, { idempotencyKey: flags.idempotencyKey }));
  const { transaction: t, card } = data;
  ctx.out.result(data, 'Fleet card redeemed', () =>
    ctx.out.kv(
      redemptionLines(t, [
        ['category', t.category],
        ['amount', money(t.amount_cents, t.currency)],
        ['card', card.id],
        ['card balance', money(card.balance, card.currency)],
        [`${card.spend_period} spend`, `${money(card.period_spent, card.currency)} of ${money(card.spend_limit, card.currency)}`],
      ]),
    ),
  );
}
