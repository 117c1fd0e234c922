import { controlContext } from '../../control-context.js';
import { money } from '../../output.js';
import { checkFlags } from '../../flag-check.js';
import { WalletCurrency } from '../../../../contract/common.js';
import { merchantScope, type MerchantFlags } from './merchant.js';
import type { FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import type { CliIO } from '../../io.js';

/**
 * What a dashboard action that makes something (a payee, a card, a top-up) starts with: its
 * --currency checked, the control client, and the merchant, environment (test when neither the
 * flags nor the key say) and currency of the body.
 */
export async function forMerchant(flags: MerchantFlags & { currency: string }, io: CliIO) {
  checkFlags(flags, { currency: WalletCurrency });
  const ctx = controlContext(flags, io);
  const scope = await merchantScope(ctx.control, flags, io);
  return { ctx, owner: { merchant_id: scope.merchantId, environment: scope.environment ?? 'test', currency: flags.currency } };
}

export async function list(_a: string[], flags: FlagsOf<typeof EMULATOR.walletsList>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const scope = await merchantScope(ctx.control, flags, io);
  const { data } = ctx.traced(
    await ctx.control.wallets({ merchant_id: scope.merchantId, environment: scope.environment, entries: flags.entries }),
  );
  ctx.out.result(data, `Wallets of ${data.merchant_id}`, () =>
    data.wallets.flatMap((w) => [
      `  ${ctx.out.c.bold(`${w.id}`)}  ${money(w.balance, w.currency)}  ${ctx.out.c.dim(`(${w.environment}, ${w.entry_count} entries)`)}`,
      ...w.entries.map((e) => `    ${e.created_at}  ${money(e.amount, w.currency).padStart(16)}  ${e.reason}${e.ref ? ` ${e.ref}` : ''}`),
    ]),
  );
}

export async function topUp(_a: string[], flags: FlagsOf<typeof EMULATOR.walletsTopUp>, io: CliIO): Promise<void> {
  const { ctx, owner } = await forMerchant(flags, io);
  const { data } = ctx.traced(await ctx.control.topUpWallet({ ...owner, amount: flags.amount }));
  ctx.out.result(data, `Wallet topped up by ${money(flags.amount, flags.currency)}`, () =>
    ctx.out.kv([['wallet', data.id], ['balance', money(data.balance, data.currency)], ['environment', data.environment]]),
  );
}
