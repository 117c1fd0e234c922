import type { DeliveryRow } from '../../../client/control.js';
import { controlContext } from '../../control-context.js';
import type { CommonFlags, FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import { genericLines } from '../../output.js';
import type { CliIO, OutStream } from '../../io.js';

// The emulator's webhook delivery log (what a dashboard shows), and the one-at-a-time
// redelivery the spec allows.


/**
 * Newest first. The default columns fit a terminal (each line is cut at its width, with an
 * ellipsis); --wide shows every column and never cuts — as does any output that is not a
 * terminal, where a script or a file gets whole lines.
 */
export async function list([endpointId]: string[], flags: FlagsOf<typeof EMULATOR.deliveriesList>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.endpointDeliveries(endpointId));
  const last = (d: DeliveryRow) => (d.last_attempt === null ? '—' : (d.last_attempt.status_code ?? d.last_attempt.error ?? 'error').toString());
  ctx.out.result(data, `Deliveries of ${endpointId} (${data.deliveries.length} of ${data.total})`, () => {
    if (flags.wide) {
      return ctx.out.table(
        ['ID', 'EVENT', 'TYPE', 'ENV', 'STATUS', 'ATTEMPTS', 'LEFT', 'LAST', 'NEXT ATTEMPT', 'CREATED', 'UPDATED'],
        data.deliveries.map((d) => [d.id, d.event_id, d.event_type, d.environment, d.status, d.attempt_count, d.attempts_left, last(d), d.next_attempt_at ?? '—', d.created_at, d.updated_at]),
      );
    }
    const lines = ctx.out.table(
      ['ID', 'TYPE', 'STATUS', 'TRIES', 'LAST', 'UPDATED'],
      data.deliveries.map((d) => [d.id, d.event_type, d.status, d.attempt_count, last(d), d.updated_at.slice(0, 19).replace('T', ' ')]),
    );
    return fitTerminal(lines, io.stdout);
  });
}

/** Cuts each line at the terminal's width (only on a terminal: a pipe gets whole lines). */
function fitTerminal(lines: string[], stdout: OutStream): string[] {
  const width = stdout.isTTY ? stdout.columns : undefined;
  if (!width) return lines;
  return lines.map((l) => (l.length > width ? `${l.slice(0, width - 1)}…` : l));
}

export async function show([id]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.delivery(id));
  ctx.out.result(data, `Delivery ${id}`, () => genericLines(ctx.out, data));
}

export async function redeliver([id]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.redeliver(id));
  ctx.out.result(data, `Delivery ${id} queued again`, () => genericLines(ctx.out, data));
}
