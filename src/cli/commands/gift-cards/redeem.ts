import { apiContext } from '../../context.js';
import type { MoneyFlags } from '../../options.js';
import { genericLines } from '../../output.js';
import { confirmLive } from '../../prompt.js';

interface Flags extends MoneyFlags {
  wallet: string;
  amount: number;
  reference?: string;
  location?: string;
}

export async function run(_a: string[], flags: Flags): Promise<void> {
  const ctx = apiContext(flags);
  await confirmLive(flags, ctx.target.environment, `redeem ${flags.amount} (minor units) from gift-card wallet ${flags.wallet}`);
  const { data } = ctx.traced(
    await ctx.api.redeemGiftCard(
      { merchant_wallet_id: flags.wallet, amount: flags.amount, reference: flags.reference, location_id: flags.location },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  ctx.out.result(data, 'Gift card redeemed', () => genericLines(ctx.out, data));
}
