import { checkFlags } from '../../flag-check.js';
import { CreatePayout } from '../../../../contract/resources/payouts.js';
import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { PAYOUTS } from './flags.js';
import { money, type Output } from '../../output.js';
import { confirmLive } from '../../prompt.js';
import type { SvcApi } from '../../../client/api.js';
import type { CliIO } from '../../io.js';

type Payout = Awaited<ReturnType<SvcApi['getPayout']>>['data'];

const payoutLines = (out: Output, p: Payout) =>
  out.kv([
    ['id', p.id],
    ['status', p.status],
    ['payee', p.payee_id],
    ['amount', money(p.amount_cents, p.currency)],
    ['external ref', p.external_ref ?? undefined],
    ['initiated at', p.initiated_at],
    ['resolved at', p.resolved_at ?? undefined],
  ]);

type CreateFlags = FlagsOf<typeof PAYOUTS.create>;

export async function create(_a: string[], flags: CreateFlags, io: CliIO): Promise<void> {
  checkFlags(flags, { currency: CreatePayout.shape.currency });
  const ctx = apiContext(flags, io);
  await confirmLive(io, flags, ctx.target, `pay out ${money(flags.amount, flags.currency)} to ${flags.payee}`);
  const { data } = ctx.traced(
    await ctx.api.createPayout(
      { payee_id: flags.payee, amount_cents: flags.amount, currency: flags.currency, external_ref: flags.externalRef },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  ctx.out.result(data, `Payout ${data.status}`, () => payoutLines(ctx.out, data));
}

export async function get([id]: string[], flags: FlagsOf<typeof PAYOUTS.get>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.getPayout(id));
  ctx.out.result(data, 'Payout', () => payoutLines(ctx.out, data));
}

export async function list(_a: string[], flags: FlagsOf<typeof PAYOUTS.list>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.listPayouts({ limit: flags.limit, offset: flags.offset }));
  ctx.out.result(data, `Payouts (${data.offset + 1}–${data.offset + data.payouts.length} of ${data.total})`, () =>
    ctx.out.table(
      ['ID', 'STATUS', 'PAYEE', 'AMOUNT', 'EXTERNAL REF', 'INITIATED'],
      data.payouts.map((p) => [p.id, p.status, p.payee_id, money(p.amount_cents, p.currency), p.external_ref ?? '', p.initiated_at]),
    ),
  );
}
