import { controlContext } from '../../control-context.js';
import { askSecret } from '../../prompt.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import { money, type Output } from '../../output.js';
import type { Payee } from '../../../client/control.js';
import { merchantScope, type MerchantFlags } from './merchant.js';
import { forMerchant } from './wallets.js';
import type { CliIO } from '../../io.js';

// Payees are a dashboard matter (the spec keeps them off the merchant API): add, approve with
// the owner's PIN, revoke, change caps.

const payeeLines = (out: Output, p: Payee) =>
  out.kv([
    ['id', p.id],
    ['name', p.name],
    ['status', p.status],
    ['currency', p.currency],
    ['per-payout cap', money(p.per_payout_cap, p.currency)],
    ['daily cap', money(p.daily_cap, p.currency)],
    ['environment', p.environment],
  ]);

export async function list(_a: string[], flags: MerchantFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const scope = await merchantScope(ctx.control, flags, io);
  const { data } = ctx.traced(await ctx.control.payees({ merchant_id: scope.merchantId, environment: scope.environment }));
  ctx.out.result(data, `Payees of ${scope.merchantId}`, () =>
    ctx.out.table(
      ['ID', 'NAME', 'STATUS', 'CURRENCY', 'PER PAYOUT', 'DAILY', 'ENV'],
      data.payees.map((p) => [p.id, p.name, p.status, p.currency, money(p.per_payout_cap, p.currency), money(p.daily_cap, p.currency), p.environment]),
    ),
  );
}

type AddFlags = FlagsOf<typeof EMULATOR.payeesAdd>;

export async function add(_a: string[], flags: AddFlags, io: CliIO): Promise<void> {
  const { ctx, owner } = await forMerchant(flags, io);
  const { data } = ctx.traced(await ctx.control.addPayee({ ...owner, name: flags.name, per_payout_cap: flags.perPayoutCap, daily_cap: flags.dailyCap }));
  ctx.out.result(data, 'Payee added (pending approval)', () => payeeLines(ctx.out, data));
}

export async function approve([id]: string[], flags: FlagsOf<typeof EMULATOR.payeesApprove>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const pin = flags.pin ?? (await askSecret(io, flags, '--pin', `Owner PIN to approve payee ${id}`));
  const { data } = ctx.traced(await ctx.control.approvePayee(id, pin));
  ctx.out.result(data, 'Payee approved', () => payeeLines(ctx.out, data));
}

export async function revoke([id]: string[], flags: FlagsOf<typeof EMULATOR.control>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.revokePayee(id));
  ctx.out.result(data, 'Payee revoked', () => payeeLines(ctx.out, data));
}

export async function caps([id]: string[], flags: FlagsOf<typeof EMULATOR.payeesCaps>, io: CliIO): Promise<void> {
  if (flags.perPayoutCap === undefined && flags.dailyCap === undefined) throw new UsageError('give --per-payout-cap, --daily-cap or both.');
  const ctx = controlContext(flags, io);
  const body = { per_payout_cap: flags.perPayoutCap, daily_cap: flags.dailyCap, pin: flags.pin };
  const { data } = ctx.traced(await ctx.control.setPayeeCaps(id, body));
  ctx.out.result(data, 'Payee caps set', () => payeeLines(ctx.out, data));
}
