import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { WEBHOOKS } from './flags.js';
import { splitList } from '../../values.js';
import { money } from '../../output.js';
import { followStream } from './follow-stream.js';
import type { CliIO } from '../../io.js';

// `svc webhooks tail`: the live stream printed. --json: one JSON object per line, events as
// {"kind":"event",id,type,created_at,environment,body} with the body parsed, attempts as
// {"kind":"attempt",…}.

export async function run(_a: string[], flags: FlagsOf<typeof WEBHOOKS.tail>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const out = ctx.out;
  const types = flags.events ? splitList(flags.events) : undefined;
  out.status(`${out.badge('stderr')}${out.e.bold('Tailing')} ${ctx.target.environment} events from ${ctx.target.baseUrl}${types ? ` (${types.join(', ')})` : ''} · Ctrl-C to stop`);
  const line = (s: string): void => out.print(s);
  await followStream(ctx, types, {
    event: (e) => {
      if (out.json) return line(JSON.stringify({ kind: 'event', ...e, body: JSON.parse(e.body) }));
      const env = JSON.parse(e.body) as { data?: { payment?: { id?: string; status?: string; amount?: number; currency?: string } } };
      const p = env.data?.payment;
      line(`${out.c.dim(e.created_at.slice(11, 19))}  ${out.c.bold(e.type.padEnd(22))} ${e.id}${p ? `  ${p.id} ${p.amount !== undefined && p.currency ? money(p.amount, p.currency) : ''}` : ''}`);
    },
    attempt: flags.attempts
      ? (a) => {
          if (out.json) return line(JSON.stringify({ kind: 'attempt', ...a }));
          const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
          const status = a.status_code === null ? out.c.red(a.error ?? 'error') : ok ? out.c.green(String(a.status_code)) : out.c.red(String(a.status_code));
          line(`${out.c.dim(a.at.slice(11, 19))}    ↳ ${a.delivery_id} → ${a.endpoint_id} attempt ${a.attempt}: ${status} ${out.c.dim(`${a.latency_ms ?? '-'} ms, ${a.delivery_status}`)}`);
        }
      : undefined,
  });
}
