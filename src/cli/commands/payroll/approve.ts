import { apiContext } from '../../context.js';
import { ControlApi } from '../../../client/control.js';
import type { MoneyFlags } from '../../options.js';
import { askSecret, confirmLive } from '../../prompt.js';
import { runLines } from './show.js';

// Approval is the business owner's act on the service's own surface (a PIN at the approval
// URL); an API key cannot do it. Against the emulator the CLI plays that page through the
// control API, then reads the run back with the merchant key to show its outcome.

export async function run([id]: string[], flags: MoneyFlags & { pin?: string }): Promise<void> {
  const ctx = apiContext(flags);
  await confirmLive(flags, ctx.target.environment, `execute payroll run ${id}`);
  const pin = flags.pin ?? (await askSecret(flags, '--pin', `Owner PIN to approve payroll run ${id}`));
  const control = new ControlApi({ baseUrl: ctx.target.baseUrl, timeoutMs: flags.timeout, traceId: ctx.api.http.traceId });
  await control.approvePayrollRun(id, pin);
  const { data } = ctx.traced(await ctx.api.getPayrollRun(id));
  ctx.out.result(data, `Payroll run ${data.run.status}`, () => runLines(ctx.out, data));
}
