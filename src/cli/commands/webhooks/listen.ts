import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { WEBHOOKS } from './flags.js';
import { splitList } from '../../values.js';
import { forward, listenDeliveryId, listenHeaders, printForward } from './forward.js';
import { followStream } from './follow-stream.js';
import { appendLog, logPath } from './listen-log.js';
import { listenSecret } from './listen-secret.js';
import { runReceiver } from './receiver.js';
import type { CliIO } from '../../io.js';

// `svc webhooks listen`: the emulator's live stream → the developer's local URL, one event at a
// time and in order, each signed with the profile's listen secret. A dropped stream (the
// emulator restarted) is resumed from the last handled cursor, so nothing is missed.

export type ListenFlags = FlagsOf<typeof WEBHOOKS.listen>;

export async function run(_a: string[], flags: ListenFlags, io: CliIO): Promise<void> {
  if (flags.printSecret) {
    // Like `stripe listen --print-secret`: the secret alone, for `export WEBHOOK_SECRET=$(…)`.
    const ctx = apiContext(flags, io);
    ctx.out.print(listenSecret(ctx.target.profile, io.env).secret);
    return;
  }
  if (flags.forward === undefined) throw new UsageError("required option '--forward <url>' not specified (or --print-secret).");
  const forwardUrl = flags.forward;
  checkUrl(forwardUrl);
  if (flags.port !== undefined) return runReceiver({ ...flags, forward: forwardUrl }, io);
  if (flags.secret !== undefined) throw new UsageError('--secret goes with --port (the live receiver); against the emulator listen signs with its own listen secret.');
  const types = flags.events ? await eventTypesFlag(flags.events) : undefined;
  const ctx = apiContext(flags, io);
  const { secret, created } = listenSecret(ctx.target.profile, io.env);
  const out = ctx.out;
  const refused = await refusesConnections(forwardUrl);
  // Ready is said only once the stream is open: a wrong key, host or event name fails first.
  const ready = () => {
    out.status(
      [
        `${out.badge('stderr')}${out.e.bold('Ready.')} Forwarding ${ctx.target.environment} events from ${ctx.target.baseUrl} to ${out.e.cyan(forwardUrl)}${types ? ` (${types.join(', ')})` : ''}`,
        `Listen secret: ${secret}  ${out.e.dim(`(${created ? 'new, ' : ''}stable for profile "${ctx.target.profile}"; verify Svc-Signature with it)`)}`,
        out.e.dim(`Log for replay: ${logPath(io.env)} · Ctrl-C to stop`),
      ].join('\n'),
    );
    if (refused) out.status(out.e.yellow(`warning: nothing is listening at ${forwardUrl} (connection refused): start your app, or fix --forward. Each event that cannot be forwarded is reported and kept in the log for replay.`));
  };

  await followStream(ctx, types, {
    event: async (e) => {
      const deliveryId = listenDeliveryId(e.id);
      const result = await forward(forwardUrl, e.body, listenHeaders(secret, e.body, e.type, deliveryId));
      appendLog({
        delivery_id: deliveryId,
        event_id: e.id,
        type: e.type,
        environment: e.environment,
        body: e.body,
        forward_url: forwardUrl,
        received_at: new Date().toISOString(),
        ...result,
      }, io.env);
      printForward(out, { type: e.type, event_id: e.id, delivery_id: deliveryId }, result);
    },
  }, ready);
  out.status('stopped.');
}

/** --events checked against the service's own list of event types, before anything is sent. */
async function eventTypesFlag(value: string): Promise<string[]> {
  const { EVENT_TYPES } = await import('../../../../contract/common.js');
  const names = splitList(value);
  const unknown = names.filter((n) => !(EVENT_TYPES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--events: ${names.length === 0 ? 'give one or more event types' : `unknown event type ${unknown.map((u) => `"${u}"`).join(', ')}`} (known: ${EVENT_TYPES.join(', ')}).`);
  }
  return names;
}

/** Whether the forward target refuses a TCP connection right now (anything else counts as up). */
async function refusesConnections(url: string): Promise<boolean> {
  const { connect } = await import('node:net');
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return new Promise((ok) => {
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port });
    // A host that drops packets would hold Ready for minutes: after a second, call it up.
    socket.setTimeout(1000, () => (socket.destroy(), ok(false)));
    socket.once('connect', () => (socket.destroy(), ok(false)));
    socket.once('error', (err: NodeJS.ErrnoException) => ok(err.code === 'ECONNREFUSED'));
  });
}

function checkUrl(url: string): void {
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--forward: "${url}" is not an http:// or https:// URL.`);
}
