import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { WriteFlags } from '../../options.js';
import { parseJsonObject } from '../../values.js';
import { paymentLines } from '../payments/show.js';
import { TRIGGERS } from './index.js';

// Like a fixture script: ordinary API calls (create a link, simulate a payment on it), so the
// event is the real one — the same fan-out, the same webhook deliveries, the same stream.

interface Flags extends WriteFlags {
  amount: number;
  currency: string;
  method: 'card' | 'momo' | 'wallet';
  metadata?: string;
}

export async function run([event]: string[], flags: Flags): Promise<void> {
  if (!TRIGGERS.includes(event as never)) throw new UsageError(`unknown event "${event}": expected one of ${TRIGGERS.join(', ')}.`);
  const ctx = apiContext(flags);
  if (ctx.target.environment === 'live') throw new UsageError('trigger works with test keys only: it would create real objects with a live key.');
  const outcome = event === 'payment.failed' ? 'failed' : 'completed';
  const metadata = flags.metadata === undefined ? { source: 'svc trigger' } : parseJsonObject('--metadata', flags.metadata);
  const { data: link } = await ctx.api.createLink({
    title: `svc trigger ${event}`,
    amount: flags.amount,
    currency: flags.currency,
    accepted_methods: [flags.method],
    metadata,
  });
  const { data } = ctx.traced(await ctx.api.simulateLink(link.id, { outcome, method: flags.method }, { idempotencyKey: flags.idempotencyKey }));
  ctx.out.result(data, `Triggered ${event}`, () => paymentLines(ctx.out, data));
}
