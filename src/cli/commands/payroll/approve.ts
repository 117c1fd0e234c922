import { apiContext } from '../../context.js';
import { ControlApi } from '../../../client/control.js';
import type { FlagsOf } from '../../flags.js';
import type { PAYROLL } from './flags.js';
import { money } from '../../output.js';
import { askSecret, askUntilAccepted, confirmLive, requirePrompt } from '../../prompt.js';
import { runLines } from './show.js';
import type { CliIO } from '../../io.js';

// Approval is the business owner's act on the service's own surface (a PIN at the approval
// URL); an API key cannot do it. Against the emulator the CLI plays that page through the
// control API, then reads the run back with the merchant key to show its outcome. The host is
// proven to be an svc emulator first: a PIN never goes anywhere else.

/** Wrong PINs are asked again on a terminal until the emulator accepts one or locks. */
export const WRONG_PIN = ['PIN_INVALID'];

export async function run([id]: string[], flags: FlagsOf<typeof PAYROLL.approve>, io: CliIO): Promise<void> {
  // Without --pin and without a terminal to ask on, stop before anything is sent.
  if (flags.pin === undefined) requirePrompt(io, flags, '--pin', `the owner's PIN to approve payroll run ${id}`);
  const ctx = apiContext(flags, io);
  const control = new ControlApi({ baseUrl: ctx.target.baseUrl, controlToken: ctx.target.controlToken, timeoutMs: flags.timeout, traceId: ctx.api.http.traceId, sleep: io.sleep });
  await control.identify();
  const { data: before } = await ctx.api.getPayrollRun(id);
  const total = `${money(before.run.total_amount_cents, before.run.currency)} in ${before.run.line_count} line${before.run.line_count === 1 ? '' : 's'}`;
  await confirmLive(io, flags, ctx.target, `execute payroll run ${id} (${total})`);
  await askUntilAccepted(
    io,
    flags,
    flags.pin,
    () => askSecret(io, flags, '--pin', `What is the owner's PIN to approve payroll run ${id} (${total})?`),
    (pin) => control.approvePayrollRun(id, pin),
    WRONG_PIN,
  );
  const { data } = ctx.traced(await ctx.api.getPayrollRun(id));
  ctx.out.result(data, `Payroll run ${data.run.status}`, () => runLines(ctx.out, data));
}
