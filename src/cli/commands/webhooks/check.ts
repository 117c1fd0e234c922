import { hostIsAllowed, isLoopbackHost, parseAllowedHostList } from '../../../../contract/network.js';
import type { CheckResult } from '../../../../contract/webhook-check.js';
import { CheckInputError, checkWebhookReceiver, planCheck, type CheckOptions } from '../../../webhooks/check/index.js';
import { messageOf } from '../../../../contract/errors.js';
import { controlContext } from '../../control-context.js';
import { NoBaseUrl, resolveBaseUrl } from '../../config/resolve.js';
import { ControlApi } from '../../../client/control.js';
import { SvcError } from '../../../client/error.js';
import { EXIT, SilentExit, UsageError } from '../../errors.js';
import type { CliIO } from '../../io.js';
import type { FlagsOf } from '../../flags.js';
import type { WEBHOOKS } from './flags.js';
import { Output } from '../../output.js';
import { splitList } from '../../values.js';

// `svc webhooks check <url>`: flags in, report out. The checks are src/webhooks/check/ (the
// testing API's emu.checkWebhookReceiver runs the same code). Exit 0 when nothing failed,
// 1 when a check failed (or the receiver or the emulator could not be reached), 2 for usage.

type Flags = FlagsOf<typeof WEBHOOKS.check>;

const FLAG_OF: Record<CheckInputError['field'], string> = { url: '<url>', secret: '--secret', events: '--events', timeout: '--timeout' };

export async function run([url]: string[], flags: Flags, io: CliIO): Promise<void> {
  const { secret: given, endpoint } = flags;
  const source: { given: string } | { endpoint: string } | undefined =
    given !== undefined && endpoint === undefined ? { given } : endpoint !== undefined && given === undefined ? { endpoint } : undefined;
  if (!source) {
    throw new UsageError("give the endpoint's signing secret with --secret <secret>, or --endpoint <we_…> to read it from the emulator (one of the two).");
  }
  let allowedHosts: string[];
  try {
    allowedHosts = parseAllowedHostList(io.env.SVC_ALLOWED_HOSTS ?? '');
  } catch (err) {
    throw new UsageError(`SVC_ALLOWED_HOSTS: ${messageOf(err)}.`);
  }
  const events = flags.events === undefined ? undefined : splitList(flags.events);
  const options = { events, timeoutMs: flags.timeout, allowedHosts, strict: Boolean(flags.strict) };
  // Every flag checked before the emulator is asked for a secret or anything is sent.
  const { url: target } = usage(() => planCheck(url, { ...options, secret: 'given' in source ? source.given : undefined }));
  const out = new Output(io, Boolean(flags.json));
  // Only plain http:// to a name not yet known as a test host needs the emulator's list.
  const asks = target.protocol === 'http:' && !isLoopbackHost(target.hostname) && !hostIsAllowed(target.hostname, allowedHosts);
  const kit =
    'endpoint' in source
      ? await fromEndpoint(flags, source.endpoint, io, options)
      : { ...options, secret: source.given, allowedHosts: asks ? [...allowedHosts, ...(await emulatorAllowedHosts(flags, io))] : allowedHosts };
  if (!out.json) out.status(`Sending signed test deliveries to ${url} …`);
  const report = await checkWebhookReceiver(url, kit);
  const { pass, fail, warn, not_graded } = report.counts;
  const counts = `${pass} passed, ${fail} failed, ${warn} warned${not_graded ? `, ${not_graded} not graded` : ''}`;
  out.result(report, `Webhook receiver ${report.url} (timeout ${report.timeout_ms} ms${report.strict ? ', strict' : ''})`, () => [...report.checks.flatMap((c) => lines(out, c)), '', report.ok ? out.c.green(`OK: ${counts}`) : out.c.red(`FAILED: ${counts}`)]);
  if (!report.ok) throw new SilentExit(EXIT.api);
}

/** A CheckInputError as a usage error naming the flag (exit 2). */
function usage<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof CheckInputError) throw new UsageError(`${FLAG_OF[err.field]}: ${err.reason}.`);
    throw err;
  }
}

/**
 * What the emulator knows of the endpoint (an unknown id: 404 naming it, exit 1, before anything
 * is sent): its secret, the event types it subscribes to (only those are sent; --events may
 * narrow them) and the emulator's --allow-host names (plain http:// to them is a test host).
 */
async function fromEndpoint(flags: Flags, id: string, io: CliIO, options: Omit<CheckOptions, 'secret'>): Promise<CheckOptions> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.endpointSecret(id));
  const unsubscribed = (options.events ?? []).filter((t) => !data.events.includes(t));
  if (unsubscribed.length > 0) throw new UsageError(`--events: ${id} does not subscribe to ${unsubscribed.join(', ')} (it subscribes to ${data.events.join(', ')}).`);
  return { ...options, secret: data.secret, events: options.events ?? data.events, allowedHosts: [...(options.allowedHosts ?? []), ...data.allowed_hosts] };
}

/**
 * With --secret, for plain http:// to a host not known as a test host: the --allow-host names
 * of the emulator the CLI finds as every command does (--base-url, SVC_BASE_URL, a profile, the
 * one running from this folder), read from its control API in one try within --timeout. No
 * emulator found is no error (the check needs none); one found but not read is said on stderr,
 * and the check runs with loopback and SVC_ALLOWED_HOSTS as the only test hosts.
 */
async function emulatorAllowedHosts(flags: Flags, io: CliIO): Promise<string[]> {
  try {
    const { baseUrl, controlToken } = resolveBaseUrl(flags, { env: io.env, cwd: io.cwd });
    const control = new ControlApi({ baseUrl, controlToken, timeoutMs: flags.timeout, traceId: flags.traceId, attempts: 1 });
    return (await control.health()).data.allowed_hosts ?? []; // an emulator older than the field names none
  } catch (err) {
    if (err instanceof NoBaseUrl) return [];
    if (!(err instanceof SvcError || err instanceof UsageError)) throw err;
    io.stderr.write(`note: the emulator's allowed hosts (--allow-host) could not be read, so only loopback and SVC_ALLOWED_HOSTS are test hosts here: ${err.message}\n`);
    return [];
  }
}

/** A check: its verdict, title and basis, then why, then how to fix (when there is something to fix). */
function lines(out: Output, c: CheckResult): string[] {
  const word = { pass: out.c.green('pass'), fail: out.c.red('fail'), warn: out.c.yellow('warn'), not_graded: out.c.dim('not graded') }[c.verdict];
  return [`  ${word}  ${out.c.bold(c.title)}${out.c.dim(` (${c.basis})`)}`, `        why: ${c.why}`, ...(c.fix ? [`        fix: ${c.fix}`] : [])];
}
