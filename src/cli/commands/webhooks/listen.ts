import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { CommonFlags } from '../../options.js';
import type { Output } from '../../output.js';
import { splitList } from '../../values.js';
import { forward, listenDeliveryId, listenHeaders, type ForwardResult } from './forward.js';
import { followStream } from './follow-stream.js';
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

  await followStream(ctx, types, {
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
  });
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
