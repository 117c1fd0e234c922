import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { WEBHOOKS } from './flags.js';
import { splitList } from '../../values.js';
import type { CliIO } from '../../io.js';

export async function create(_a: string[], flags: FlagsOf<typeof WEBHOOKS.endpointsCreate>, io: CliIO): Promise<void> {
  const events = splitList(flags.events);
  if (events.length === 0) throw new UsageError('--events: name at least one event type.');
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.createWebhookEndpoint({ url: flags.url, events: events as never }, { idempotencyKey: flags.idempotencyKey }));
  // The secret is returned once, at creation: it is printed in full this one time.
  ctx.out.result(data, 'Webhook endpoint created', () => [
    ...ctx.out.kv([
      ['id', data.endpoint.id],
      ['url', data.endpoint.url],
      ['events', data.endpoint.events.join(', ')],
      ['created at', data.endpoint.created_at],
      ['secret', data.secret],
    ]),
    '',
    ctx.out.c.yellow('  Store the secret now: it is never shown again (later reads show only its last 4 characters).'),
  ]);
}

export async function list(_a: string[], flags: FlagsOf<typeof WEBHOOKS.endpointsList>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.listWebhookEndpoints());
  ctx.out.result(data, 'Webhook endpoints', () =>
    ctx.out.table(
      ['ID', 'URL', 'EVENTS', 'SECRET', 'CREATED'],
      data.endpoints.map((e) => [e.id, e.url, e.events.join(','), `…${e.secret_hint}`, e.created_at]),
    ),
  );
}

export async function remove([id]: string[], flags: FlagsOf<typeof WEBHOOKS.endpointsDelete>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.deleteWebhookEndpoint(id, { idempotencyKey: flags.idempotencyKey }));
  ctx.out.result(data, 'Webhook endpoint deleted', () => ctx.out.kv([['id', data.id], ['deleted', data.deleted]]));
}
