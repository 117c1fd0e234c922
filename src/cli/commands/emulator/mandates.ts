import { controlContext } from '../../control-context.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import { money } from '../../output.js';

import { askSecret } from '../../prompt.js';
import type { CliIO } from '../../io.js';

// The customer's side of a mandate: saving a card on the approval page, or approving a
// wallet mandate with a PIN in the wallet app.

export async function approveCard([id]: string[], flags: FlagsOf<typeof EMULATOR.approveCard>, io: CliIO): Promise<void> {
  const m = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(flags.expiry);
  if (!m) throw new UsageError(`--expiry: expected MM/YY, got "${flags.expiry}".`);
  const year = Number(m[2]);
  const ctx = controlContext(flags, io);
  const body = { number: flags.number, exp_month: Number(m[1]), exp_year: year < 100 ? 2000 + year : year, cvc: flags.cvc };
  const { data } = ctx.traced(await ctx.control.approveCardMandate(id, body));
  const card = data.card ? `${data.card.brand} card ending ${data.card.last4}` : 'The card';
  ctx.out.result(data, `${card} saved: mandate ${data.id} is ${data.status}, for charges of up to ${money(data.max_amount_cents, data.currency)} each.`, () => []);
}

export async function approveWallet([id]: string[], flags: FlagsOf<typeof EMULATOR.approveWallet>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const pin = flags.pin ?? (await askSecret(io, flags, '--pin', `Wallet PIN of ${flags.phone}`));
  const { data } = ctx.traced(await ctx.control.approveWalletMandate(id, flags.phone, pin));
  ctx.out.result(data, `${flags.phone} approved wallet mandate ${data.id}: it is ${data.status}, for charges of up to ${money(data.max_amount_cents, data.currency)} each.`, () => []);
}
