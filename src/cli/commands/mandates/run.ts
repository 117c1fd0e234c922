import { checkFlags } from '../../flag-check.js';
import { CreateMandate } from '../../../../contract/resources/mandates.js';
import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { MANDATES } from './flags.js';
import { money, type Output } from '../../output.js';
import type { SvcApi } from '../../../client/api.js';
import type { CliIO } from '../../io.js';

type Mandate = Awaited<ReturnType<SvcApi['getMandate']>>['data'];

const mandateLines = (out: Output, m: Mandate) =>
  out.kv([
    ['id', m.id],
    ['status', m.status],
    ['rail', m.rail],
    ['customer ref', m.customer_ref],
    ['max per charge', money(m.max_amount_cents, m.currency)],
    ['customer email', m.customer_email ?? undefined],
    ['customer phone', m.customer_phone ?? undefined],
    ['card', m.card ? `${m.card.brand} •••• ${m.card.last4}` : undefined],
    ['approval url', m.approval_url],
    ['created at', m.created_at],
    ['revoked at', m.revoked_at ?? undefined],
  ]);

type CreateFlags = FlagsOf<typeof MANDATES.create>;

export async function create(_a: string[], flags: CreateFlags, io: CliIO): Promise<void> {
  checkFlags(flags, { currency: CreateMandate.shape.currency });
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(
    await ctx.api.createMandate(
      {
        rail: flags.rail,
        customer_ref: flags.customerRef,
        // Checked above (exit 2 naming the flag); parsed again for its type.
        currency: CreateMandate.shape.currency.parse(flags.currency),
        max_amount_cents: flags.maxAmount,
        customer_email: flags.customerEmail,
        customer_phone: flags.customerPhone,
      },
      { idempotencyKey: flags.idempotencyKey },
    ),
  );
  ctx.out.result(data, `Mandate created (${data.mandate.status})`, () => [
    ...mandateLines(ctx.out, data.mandate),
    ...(data.mandate.status === 'pending' ? ['', `  The customer approves at ${ctx.out.c.cyan(data.approval_url)}`] : []),
  ]);
}

export async function get([id]: string[], flags: FlagsOf<typeof MANDATES.get>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.getMandate(id));
  ctx.out.result(data, 'Mandate', () => mandateLines(ctx.out, data));
}

export async function revoke([id]: string[], flags: FlagsOf<typeof MANDATES.revoke>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.revokeMandate(id, { idempotencyKey: flags.idempotencyKey }));
  ctx.out.result(data, 'Mandate revoked', () => (data && typeof data === 'object' && 'rail' in data ? mandateLines(ctx.out, data) : []));
}
