import { controlContext } from '../../context.js';
import type { CommonFlags } from '../../options.js';
import { genericLines } from '../../output.js';

// The emulator's webhook delivery log (what a dashboard shows), and the one-at-a-time
// redelivery the spec allows.

export async function list([endpointId]: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.endpointDeliveries(endpointId));
  ctx.out.result(data, `Deliveries of ${endpointId}`, () => genericLines(ctx.out, data));
}

export async function show([id]: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.delivery(id));
  ctx.out.result(data, `Delivery ${id}`, () => genericLines(ctx.out, data));
}

export async function redeliver([id]: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.redeliver(id));
  ctx.out.result(data, `Delivery ${id} queued again`, () => genericLines(ctx.out, data));
}
