import { EVENT_TYPES, type EventType } from '../../../contract/common.js';
import { Sender, type AttemptOutcome } from '../../../emulator/webhooks/sender.js';
import type { CheckResult, ReceiverReport } from '../../../contract/webhook-check.js';
import { craft, type Crafted } from './deliveries.js';
import { grade, type Sent } from './grade.js';

// `svc webhooks check <url>` and the testing API's `emu.checkWebhookReceiver(url, { secret })`:
// crafted deliveries sent straight to a merchant's receiver with the engine's own sender
// (emulator/webhooks/sender.ts: no redirect followed, the same timeout rule), each answer graded
// against what the spec expects. The CLI command only parses flags and prints the report.

export interface CheckOptions {
  /** The endpoint's signing secret (what the receiver verifies with). */
  secret: string;
  /** Event types to send (default: every type). The single-delivery checks use the first. */
  events?: readonly string[];
  /** How long an answer may take, in ms (default: the spec's 10 s). */
  timeoutMs?: number;
  /** Names plain http:// may go to without a warning besides loopback (an emulator's --allow-host). */
  allowedHosts?: readonly string[];
  /** Advice checks fail instead of warning (every warning is a failure). */
  strict?: boolean;
}

/** The spec's acknowledgement window; the emulator's --webhook-timeout default too. */
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_TIMEOUT_MS = 3_600_000;

/** Bad input, naming what was wrong (`field`); the CLI turns it into a usage error naming the flag. */
export class CheckInputError extends RangeError {
  constructor(
    readonly field: 'url' | 'secret' | 'events' | 'timeout',
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export interface Plan {
  url: URL;
  types: EventType[];
  timeoutMs: number;
  allowedHosts: readonly string[];
  strict: boolean;
}

/** Checks every option (the secret when given) before anything is sent; throws CheckInputError. */
export function planCheck(rawUrl: string, options: Omit<CheckOptions, 'secret'> & { secret?: unknown }): Plan {
  if (options.secret !== undefined) checkSecret(options.secret);
  // The URL parser drops tabs and newlines wherever they are: refused, so what is graded is what was typed.
  const control = /[\x00-\x1f\x7f]/.exec(rawUrl);
  if (control) throw new CheckInputError('url', `holds a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}${control[0] === '\n' ? ', a newline' : ''}): give the URL on its own`);
  if (!URL.canParse(rawUrl)) throw new CheckInputError('url', `"${rawUrl}" is not an absolute URL (e.g. http://localhost:3000/webhooks)`);
  const url = new URL(rawUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CheckInputError('url', `must be http:// or https:// (got ${url.protocol}//)`);
  if (url.username || url.password) throw new CheckInputError('url', 'must not carry credentials (deliveries never send any)');
  const names = [...new Set((options.events ?? EVENT_TYPES).map((t) => t.trim()))];
  const types = names.flatMap((n) => EVENT_TYPES.filter((known) => known === n));
  const unknown = names.filter((n) => !types.some((known) => known === n));
  if (names.length === 0 || unknown.length > 0) {
    throw new CheckInputError('events', `${names.length === 0 ? 'give one or more event types' : `unknown event type ${unknown.map((u) => `"${u}"`).join(', ')}`} (known: ${EVENT_TYPES.join(', ')})`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) throw new CheckInputError('timeout', `from 1 ms to 1 h (got ${timeoutMs} ms)`);
  return { url, types, timeoutMs, allowedHosts: options.allowedHosts ?? [], strict: options.strict ?? false };
}

/** An empty or blank secret signs nothing a receiver would check against; a newline is a pasting slip no endpoint secret holds. */
function checkSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.trim() === '') throw new CheckInputError('secret', "give the endpoint's signing secret (an empty or blank key signs nothing)");
  if (/[\r\n]/.test(secret)) throw new CheckInputError('secret', 'holds a newline: give the secret alone, as the endpoint was given it');
}

/** Runs every check against the receiver at `url`; resolves with the report (never rejects for a receiver's answers). */
export async function checkWebhookReceiver(url: string, options: CheckOptions): Promise<ReceiverReport> {
  const plan = planCheck(url, { ...options, secret: options.secret ?? null });
  const crafted = craft(options.secret, plan.types);
  // Connections (TCP and TLS) are bounded by the timeout too: nothing outlasts it.
  const sender = new Sender(plan.timeoutMs);
  const sent = new Map<Crafted, Promise<Sent>>();
  const send = (c: Crafted): Promise<Sent> => {
    let answer = sent.get(c);
    if (!answer) {
      const headers = c.headers();
      answer = sender.send({ url: plan.url.href, body: c.body, headers, timeoutMs: plan.timeoutMs }).then((o) => asSent(plan, c, headers, o));
      sent.set(c, answer);
    }
    return answer;
  };
  try {
    // The first delivery alone: a receiver that cannot be reached (no connection made) is one
    // error, not 20 verdicts. Any answer, even bytes that are not HTTP, is graded; so is a
    // receiver that stops answering later (it crashed on a delivery).
    const first = await send(crafted[0]);
    if (first.unreachable) throw new Error(`cannot reach ${plan.url.href}: ${first.error}`);
    // The rest at once (a duplicate waits for its original's answer, as a retry would).
    const requests = await Promise.all(crafted.map(async (c) => (c.after ? (await send(c.after), send({ ...c, after: undefined })) : send(c))));
    return report(plan, grade(plan, requests));
  } finally {
    await sender.close();
  }
}

/** A sent delivery and its answer, as the report shows it (grade.ts gives its verdict). */
function asSent(plan: Plan, c: Crafted, headers: Record<string, string>, o: AttemptOutcome): Sent {
  return {
    check: c.check,
    ...(c.plain && { plain: c.plain }),
    ...(o.unreachable && { unreachable: o.unreachable }),
    label: c.label,
    request: { method: 'POST', url: plan.url.href, headers, body: c.body },
    expected: c.expected,
    status: o.status_code,
    time_ms: o.latency_ms,
    error: o.error,
  };
}

function report(plan: Plan, checks: CheckResult[]): ReceiverReport {
  const counts = { pass: 0, fail: 0, warn: 0, not_graded: 0 };
  for (const c of checks) counts[c.verdict]++;
  return { url: plan.url.href, timeout_ms: plan.timeoutMs, events: plan.types, strict: plan.strict, ok: counts.fail === 0, counts, checks };
}
