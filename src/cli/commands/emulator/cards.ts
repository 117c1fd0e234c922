import { controlContext } from '../../control-context.js';
import { UsageError } from '../../errors.js';
import type { CommonFlags, FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import { genericLines, money } from '../../output.js';
import { splitList } from '../../values.js';
import { merchantScope, type MerchantFlags } from './merchant.js';
import { forMerchant } from './wallets.js';
import type { CliIO } from '../../io.js';
import type { ControlResponse } from '../../../client/control.js';

// Issuing cards is dashboard work (the merchant API only redeems): gift-card wallets (a
// customer's pocket at a merchant) and fleet cards.

type GiftWallet = ControlResponse<'issueGiftCardWallet'>;

export async function giftList(_a: string[], flags: MerchantFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const scope = await merchantScope(ctx.control, flags, io);
  const { data } = ctx.traced(await ctx.control.get<{ wallets?: GiftWallet[] }>('/gift-card-wallets', { merchant_id: scope.merchantId, environment: scope.environment }));
  ctx.out.result(data, `Gift-card wallets of ${scope.merchantId}`, () => genericLines(ctx.out, data));
}

export async function giftIssue(_a: string[], flags: FlagsOf<typeof EMULATOR.giftIssue>, io: CliIO): Promise<void> {
  const { ctx, owner } = await forMerchant(flags, io);
  const { data } = ctx.traced(await ctx.control.post<GiftWallet>('/gift-card-wallets', { ...owner, balance: flags.balance, holder_phone: flags.holderPhone }));
  ctx.out.result(data, 'Gift-card wallet issued', () => ctx.out.kv([['id', data.id], ['balance', money(data.balance, data.currency)], ['environment', data.environment]]));
}

export async function giftLoad([id]: string[], flags: FlagsOf<typeof EMULATOR.load>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.post<GiftWallet>(`/gift-card-wallets/${encodeURIComponent(id)}/load`, { amount: flags.amount }));
  ctx.out.result(data, 'Gift-card wallet loaded', () => ctx.out.kv([['id', data.id], ['balance', money(data.balance, data.currency)]]));
}

export async function fleetList(_a: string[], flags: MerchantFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const scope = await merchantScope(ctx.control, flags, io);
  const { data } = ctx.traced(await ctx.control.get('/fleet-cards', { merchant_id: scope.merchantId, environment: scope.environment }));
  ctx.out.result(data, `Fleet cards of ${scope.merchantId}`, () => genericLines(ctx.out, data));
}

export async function fleetIssue(_a: string[], flags: FlagsOf<typeof EMULATOR.fleetIssue>, io: CliIO): Promise<void> {
  const categories = splitList(flags.categories);
  if (categories.length === 0) throw new UsageError('--categories: name at least one category.');
  const { ctx, owner } = await forMerchant(flags, io);
  const { data } = ctx.traced(
    await ctx.control.post('/fleet-cards', {
      ...owner,
      allowed_categories: categories,
      spend_limit: flags.spendLimit,
      spend_period: flags.spendPeriod,
      balance: flags.balance,
      status: flags.inactive ? 'inactive' : 'active',
    }),
  );
  ctx.out.result(data, 'Fleet card issued', () => genericLines(ctx.out, data));
}

export async function fleetStatus([id, status]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  if (status !== 'active' && status !== 'inactive') throw new UsageError(`status: expected active or inactive, got "${status}".`);
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.post(`/fleet-cards/${encodeURIComponent(id)}/status`, { status }));
  ctx.out.result(data, `Fleet card ${status}`, () => genericLines(ctx.out, data));
}

export async function fleetTopUp([id]: string[], flags: FlagsOf<typeof EMULATOR.load>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.post(`/fleet-cards/${encodeURIComponent(id)}/top-up`, { amount: flags.amount }));
  ctx.out.result(data, 'Fleet card topped up', () => genericLines(ctx.out, data));
}
