import { controlContext } from '../../control-context.js';
import type { CommonFlags } from '../../flags.js';
import { UsageError } from '../../errors.js';
import type { CliIO } from '../../io.js';
import type { ControlResponse } from '../../../client/control.js';

// `svc emulator payout-provider`: what the emulated payout provider answers. The default comes
// from `svc emulator start --payout-outcome/--payout-delay`; queued outcomes apply to the next
// payouts accepted, so a script can make one payout fail without restarting the emulator.

type ProviderState = ControlResponse<'payoutProvider'>;

export async function show(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.get<ProviderState>('/payouts/provider'));
  render(ctx, data, 'Payout provider');
}

export async function queue(outcomes: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const bad = outcomes.find((o) => o !== 'completed' && o !== 'failed');
  if (bad !== undefined) throw new UsageError(`outcomes are completed or failed, not "${bad}"`);
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.post<ProviderState>('/payouts/provider/outcomes', { outcomes }));
  render(ctx, data, outcomes.length ? `Next ${outcomes.length} payout(s) queued` : 'Queue cleared');
}

function render(ctx: ReturnType<typeof controlContext>, data: ProviderState, title: string): void {
  ctx.out.result(data, title, () =>
    ctx.out.kv([
      ['answers after', `${data.resolve_ms} ms (emulator clock)`],
      ['default outcome', data.default_outcome],
      ['queued', data.queued_outcomes.length ? data.queued_outcomes.join(', ') : '(none)'],
    ]),
  );
}
