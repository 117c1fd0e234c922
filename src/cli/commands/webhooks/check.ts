import { parseAllowedHostList } from '../../../../contract/network.js';
import type { CheckResult } from '../../../../contract/webhook-check.js';
import { CheckInputError, checkWebhookReceiver, planCheck, type CheckOptions } from '../../../webhooks/check/index.js';
import { messageOf } from '../../../../contract/errors.js';
import { controlContext } from '../../control-context.js';
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
  usage(() => planCheck(url, { ...options, secret: 'given' in source ? source.given : undefined }));
  const out = new Output(io, Boolean(flags.json));
  const kit = 'given' in source ? { ...options, secret: source.given } : await fromEndpoint(flags, source.endpoint, io, options);
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

/** A check: its verdict, title and basis, then why, then how to fix (when there is something to fix). */
function lines(out: Output, c: CheckResult): string[] {
  const word = { pass: out.c.green('pass'), fail: out.c.red('fail'), warn: out.c.yellow('warn'), not_graded: out.c.dim('not graded') }[c.verdict];
  return [`  ${word}  ${out.c.bold(c.title)}${out.c.dim(` (${c.basis})`)}`, `        why: ${c.why}`, ...(c.fix ? [`        fix: ${c.fix}`] : [])];
}
