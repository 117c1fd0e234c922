import { apiContext } from '../../context.js';
import { controlContext } from '../../control-context.js';
import { EXIT, SilentExit, UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import type { WEBHOOKS } from './flags.js';
import { genericLines, Output } from '../../output.js';
import { forward, listenHeaders, printForward } from './forward.js';
import { appendLog, findLogged, logPath } from './listen-log.js';
import { listenSecret } from './listen-secret.js';
import type { CliIO } from '../../io.js';

// `svc webhooks replay <id>`: send a delivery that `listen` captured to its target again
// (same Svc-Delivery, a fresh signature), or — for a dlv_ id, or with --emulator — ask the
// emulator to redeliver one of its own deliveries (it goes back to pending with the same id).

export async function run([id]: string[], flags: FlagsOf<typeof WEBHOOKS.replay>, io: CliIO): Promise<void> {
  // The id says which kind it is: dlv_ is the emulator's delivery log, ldv_ the listen log.
  if (flags.emulator || id.startsWith('dlv_')) {
    const ctx = controlContext(flags, io);
    const { data } = ctx.traced(await ctx.control.redeliver(id));
    ctx.out.result(data, `Delivery ${id} queued for redelivery`, () => genericLines(ctx.out, data));
    return;
  }
  const logged = findLogged(id, io.env);
  if (!logged) throw new UsageError(`no delivery ${id} in the listen log (${logPath(io.env)}); for an emulator delivery add --emulator.`);
  const target = flags.forward ?? logged.forward_url;
  let headers: Record<string, string>;
  let marker: 'test' | 'live' | undefined;
  let host: string | undefined;
  if (logged.headers) {
    // Captured by the live receiver: pass the original signed headers on unchanged.
    headers = logged.headers;
  } else {
    const ctx = apiContext(flags, io);
    marker = ctx.target.environment;
    host = ctx.target.baseUrl;
    headers = listenHeaders(listenSecret(ctx.target.profile, io.env).secret, logged.body, logged.type, logged.delivery_id);
  }
  const result = await forward(target, logged.body, headers);
  appendLog({ ...logged, forward_url: target, received_at: new Date().toISOString(), ...result }, io.env);
  printForward(new Output(io, Boolean(flags.json), marker, host), { type: logged.type, event_id: logged.event_id, delivery_id: logged.delivery_id }, result);
  // The forward is printed either way; a target that did not take it is exit 1.
  if (result.status_code === null || result.status_code >= 300) throw new SilentExit(EXIT.api);
}
