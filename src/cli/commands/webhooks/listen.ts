import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { CommonFlags } from '../../options.js';
import type { Output } from '../../output.js';
import { EventStream } from '../../../client/stream.js';
import { splitList } from '../../values.js';
import { forward, listenDeliveryId, listenHeaders, type ForwardResult } from './forward.js';
import { appendLog, logPath } from './listen-log.js';
import { listenSecret } from './listen-secret.js';
import { runReceiver } from './receiver.js';

// `svc webhooks listen`: the emulator's live stream → the developer's local URL, one event at a
// time and in order, each signed with the profile's listen secret. A dropped stream (the
// emulator restarted) is resumed from the last handled cursor, so nothing is missed.

export interface ListenFlags extends CommonFlags {
  forward: string;
  events?: string;
  port?: number;
  secret?: string;
  host: string;
}

export async function run(_a: string[], flags: ListenFlags): Promise<void> {
  checkUrl(flags.forward);
  if (flags.port !== undefined) return runReceiver(flags);
  if (flags.secret !== undefined) throw new UsageError('--secret goes with --port (the live receiver); against the emulator listen signs with its own listen secret.');
  const ctx = apiContext(flags);
  const types = flags.events ? splitList(flags.events) : undefined;
  const { secret, created } = listenSecret(ctx.target.profile);
  const out = ctx.out;
  out.status(
    [
      `${out.badge('stderr')}${out.e.bold('Ready.')} Forwarding ${ctx.target.environment} events from ${ctx.target.baseUrl} to ${out.e.cyan(flags.forward)}${types ? ` (${types.join(', ')})` : ''}`,
      `Listen secret: ${secret}  ${out.e.dim(`(${created ? 'new, ' : ''}stable for profile "${ctx.target.profile}"; verify Svc-Signature with it)`)}`,
      out.e.dim(`Log for replay: ${logPath()} · Ctrl-C to stop`),
    ].join('\n'),
  );

  const stream = new EventStream({ baseUrl: ctx.target.baseUrl, apiKey: ctx.target.apiKey, types, traceId: ctx.api.http.traceId });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await stream.run(
      {
        event: async (e) => {
          const deliveryId = listenDeliveryId(e.id);
          const result = await forward(flags.forward, e.body, listenHeaders(secret, e.body, e.type, deliveryId));
          appendLog({
            delivery_id: deliveryId,
            event_id: e.id,
            type: e.type,
            environment: e.environment,
            body: e.body,
            forward_url: flags.forward,
            received_at: new Date().toISOString(),
            ...result,
          });
          printForward(out, { type: e.type, event_id: e.id, delivery_id: deliveryId }, result);
        },
        connected: ({ reconnect, resumedFrom }) => {
          // Without a cursor the stream starts at "now": events from before this line are not sent.
          if (!reconnect) out.status(out.e.dim('connected; waiting for events'));
          else out.status(out.e.green(`reconnected${resumedFrom ? `, resuming after ${resumedFrom}` : ''}`));
        },
        disconnected: ({ reason, retryInMs }) => out.status(out.e.yellow(`stream lost (${reason}); reconnecting in ${(retryInMs / 1000).toFixed(1)} s`)),
      },
      stop.signal,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  out.status('stopped.');
}

/** One line per forward: time, type, delivery id, target status, latency (or a JSON line). */
export function printForward(out: Output, ids: { type: string; event_id: string; delivery_id: string }, r: ForwardResult): void {
  const time = new Date().toISOString();
  if (out.json) {
    process.stdout.write(`${JSON.stringify({ time, ...ids, ...r })}\n`);
    return;
  }
  const ok = r.status_code !== null && r.status_code >= 200 && r.status_code < 300;
  const status = r.status_code === null ? out.c.red(`✗ ${r.error}`) : ok ? out.c.green(`→ ${r.status_code}`) : out.c.red(`→ ${r.status_code}`);
  process.stdout.write(`${out.c.dim(time.slice(11, 19))}  ${ids.type.padEnd(22)} ${ids.delivery_id}  ${status}  ${out.c.dim(`${r.latency_ms} ms`)}\n`);
}

function checkUrl(url: string): void {
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--forward: "${url}" is not an http:// or https:// URL.`);
}
