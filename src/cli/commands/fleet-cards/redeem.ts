import { apiContext } from '../../context.js';
import type { MoneyFlags } from '../../options.js';
import { genericLines } from '../../output.js';
import { confirmLive } from '../../prompt.js';

interface Flags extends MoneyFlags {
  card: string;
  category: string;
  amount: number;
  reference?: string;
  location?: string;
}

export async function run(_a: string[], flags: Flags): Promise<void> {
  const ctx = apiContext(flags);
  await confirmLive(flags, ctx.target.environment, `redeem ${flags.amount} (minor units) on fleet card ${flags.card}`);
  const { data } = ctx.traced(
    await ctx.api.redeemFleetCard(
      { fleet_card_id: flags.card, category: flags.category, amount_cents: flags.amount, reference: flags.reference, location_id: flags.location },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  ctx.out.result(data, 'Fleet card redeemed', () => genericLines(ctx.out, data));
}
