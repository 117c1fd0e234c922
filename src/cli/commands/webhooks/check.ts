import { parseAllowedHostList } from '../../../../contract/network.js';
import type { CheckResult } from '../../../../contract/webhook-check.js';
import { CheckInputError, checkWebhookReceiver, planCheck } from '../../../webhooks/check/index.js';
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
    throw new UsageError(`SVC_ALLOWED_HOSTS: ${(err as Error).message}.`);
  }
  if (given === '') throw new UsageError('--secret is empty: give the endpoint secret (an empty key signs nothing).');
  const options = { events: flags.events === undefined ? undefined : splitList(flags.events), timeoutMs: flags.timeout, allowedHosts };
  try {
    // Every flag checked before the emulator is asked for a secret or anything is sent.
    planCheck(url, options);
  } catch (err) {
    if (err instanceof CheckInputError) throw new UsageError(`${FLAG_OF[err.field]}: ${err.reason}.`);
    throw err;
  }
  const out = new Output(io, Boolean(flags.json));
  const secret = 'given' in source ? source.given : await endpointSecret(flags, source.endpoint, io);
  if (!out.json) out.status(`Sending signed test deliveries to ${url} …`);
  const report = await checkWebhookReceiver(url, { ...options, secret });
  const counts = `${report.counts.pass} passed, ${report.counts.fail} failed, ${report.counts.warn} warned`;
  out.result(report, `Webhook receiver ${report.url} (timeout ${report.timeout_ms} ms)`, () => [...report.checks.flatMap((c) => lines(out, c)), '', report.ok ? out.c.green(`OK: ${counts}`) : out.c.red(`FAILED: ${counts}`)]);
  if (!report.ok) throw new SilentExit(EXIT.api);
}

/** The endpoint's secret, from the emulator's control API (an unknown id: 404 naming it, exit 1). */
async function endpointSecret(flags: Flags, id: string, io: CliIO): Promise<string> {
  const ctx = controlContext(flags, io);
  return ctx.traced(await ctx.control.endpointSecret(id)).data.secret;
}

/** A check: its verdict and title, then why, then how to fix (when there is something to fix). */
function lines(out: Output, c: CheckResult): string[] {
  const word = { pass: out.c.green('pass'), fail: out.c.red('fail'), warn: out.c.yellow('warn') }[c.verdict];
  return [`  ${word}  ${out.c.bold(c.title)}`, `        why: ${c.why}`, ...(c.fix ? [`        fix: ${c.fix}`] : [])];
}
