import { hostIsAllowed, isLoopbackHost } from '../../../contract/network.js';
import type { CheckBasis, CheckedRequest, CheckId, CheckResult } from '../../../contract/webhook-check.js';
import type { Plan } from './index.js';

// The verdicts, from what was seen only. Each flaw is graded by one check: a redirect by "No
// redirects", an answer that did not come within the timeout by "Time"; the other checks skip
// those requests and grade the answers that did come. A receiver that accepted no valid
// delivery (a wrong secret, a wrong path, an answer that is not HTTP) fails "Valid deliveries",
// which says why, and the checks that need an accepted delivery are not graded: a receiver
// that refuses everything would pass "Forged deliveries" and fail "Duplicate delivery" for no
// flaw of their own. A spec check's flaw fails; an advice check's warns (fails under strict).

/** A delivery sent and its answer; `check` says which check grades it. */
export type Sent = Omit<CheckedRequest, 'verdict'> & { check: CheckId; plain?: true; unreachable?: true };

const isTimeout = (r: Pick<Sent, 'status' | 'error'>) => r.status === null && r.error !== null && r.error.startsWith('timeout');
const isRedirect = (r: Pick<Sent, 'status'>) => r.status !== null && r.status >= 300 && r.status < 400;
const is2xx = (r: Pick<Sent, 'status'>) => r.status !== null && r.status >= 200 && r.status < 300;
const is4xx = (r: Pick<Sent, 'status'>) => r.status !== null && r.status >= 400 && r.status < 500;

type Graded = Sent & Pick<CheckedRequest, 'verdict'>;
const answerOf = (r: Sent) => (r.status === null ? `no answer (${r.error})` : String(r.status));
const listed = (rs: Graded[]) => rs.map((r) => `${r.label} → ${answerOf(r)}`).join('; ');
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

const CHECKS: Record<CheckId, { title: string; basis: CheckBasis }> = {
  valid: { title: 'Valid deliveries', basis: 'spec' },
  bad: { title: 'Forged deliveries', basis: 'spec' },
  timestamps: { title: 'Timestamps out of tolerance', basis: 'advice' },
  refusal_status: { title: 'Refusals are 4xx', basis: 'advice' },
  duplicate: { title: 'Duplicate delivery', basis: 'spec' },
  forward_compat: { title: 'Forward compatibility', basis: 'advice' },
  time: { title: 'Time', basis: 'spec' },
  redirects: { title: 'No redirects', basis: 'spec' },
  transport: { title: 'Transport', basis: 'advice' },
};

type Why = Pick<CheckResult, 'why' | 'fix'>;
type Verdict = Why & { verdict: CheckResult['verdict'] };
const passed = (why: string): Verdict => ({ verdict: 'pass', why, fix: null });
const notGraded = (why: string): Verdict => ({ verdict: 'not_graded', why, fix: null });

export function grade(plan: Plan, sent: Sent[]): CheckResult[] {
  const graded: Graded[] = sent.map((r) => ({
    ...r,
    verdict: isRedirect(r) || isTimeout(r) ? 'skipped' : (r.expected === '2xx' ? is2xx(r) : !is2xx(r)) ? 'pass' : 'fail',
  }));
  const of = (id: CheckId) => graded.filter((r) => r.check === id);
  const result = (id: CheckId, requests: Graded[], v: Verdict): CheckResult => {
    const { title, basis } = CHECKS[id];
    // A flaw of an advice check warns; --strict makes every warning a failure.
    const verdict = v.verdict === 'fail' && basis === 'advice' ? 'warn' : v.verdict;
    return { id, title, basis, ...v, verdict: plan.strict && verdict === 'warn' ? 'fail' : verdict, requests: requests.map(shown) };
  };

  const plain = graded.filter((r) => r.plain);
  const accepted = plain.some(is2xx);
  /** Why the checks that need an accepted delivery cannot grade, or null when one was accepted. */
  const gate = accepted
    ? null
    : plain.every((r) => r.verdict === 'skipped')
      ? 'no valid delivery got an answer to grade (each was a redirect or came too late: see No redirects and Time)'
      : 'no valid delivery was accepted, so a refusal here would tell nothing (see Valid deliveries)';

  /** A check of answers: not graded behind the gate or when every answer was skipped, else `judge` decides. */
  const answers = (id: CheckId, judge: (failed: Graded[], all: Graded[]) => Verdict, requests = of(id)): CheckResult => {
    if (gate && id !== 'valid') return result(id, requests, notGraded(gate));
    if (requests.every((r) => r.verdict === 'skipped')) return result(id, requests, notGraded('every answer was a redirect or came too late (see No redirects and Time)'));
    return result(id, requests, judge(requests.filter((r) => r.verdict === 'fail'), requests));
  };
  const skippedNote = (all: Graded[]) => {
    const n = all.filter((r) => r.verdict === 'skipped').length;
    return n ? ` (${n} not graded here: redirect or timeout)` : '';
  };

  const refused = [...of('bad'), ...of('timestamps')].filter((r) => r.verdict === 'pass').map((r): Graded => ({ ...r, expected: '4xx', verdict: is4xx(r) ? 'pass' : 'fail' }));
  return [
    answers('valid', (failed, all) => (failed.length === 0 ? passed(`${plan.types.length} event type${plan.types.length === 1 ? '' : 's'}, a body laid out differently (whitespace, \\u escapes, key order) and a header with two v1= signatures were answered 2xx${skippedNote(all)}`) : validFailure(plan, failed, all, accepted))),
    answers('bad', (failed, all) =>
      failed.length === 0
        ? passed(`all ${all.length} forged deliveries (no, malformed, wrong-secret, changed-body and body-only signatures) were refused${skippedNote(all)}`)
        : {
            verdict: 'fail',
            why: `${failed.length} of ${all.length} forged deliveries were accepted (2xx): ${listed(failed)}; none carries a valid signature of its body, so whoever sent it could forge any event`,
            fix: 'verify Svc-Signature (HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret) before acting, and refuse the delivery when no v1= entry matches',
          },
    ),
    answers('timestamps', (failed, all) =>
      failed.length === 0
        ? passed(`a timestamp 301 s old and one a day ahead were refused${skippedNote(all)}`)
        : {
            verdict: 'fail',
            why: `${failed.length} of ${all.length} deliveries correctly signed at a time more than 300 s from now were accepted: ${listed(failed)}; a delivery captured once could be replayed later`,
            fix: 'refuse a t more than 300 s from your clock, either way (verifySignature does)',
          },
    ),
    refused.length === 0 && !gate
      ? result('refusal_status', [], notGraded('no bad delivery was refused, so there is no refusal to grade (see Forged deliveries)'))
      : answers(
          'refusal_status',
          (failed, all) =>
            failed.length === 0
              ? passed(`every refused delivery (${all.length}) was answered 4xx`)
              : {
                  verdict: 'fail',
                  why: `${failed.length} of ${all.length} refused deliveries were not answered 4xx: ${listed(failed)}; a 5xx (or a dropped connection) says your server failed, not the request: it sets off error alerts, and a sender keeps retrying it`,
                  fix: 'answer 400 (never 5xx) when a signature does not verify',
                },
          refused,
        ),
    answers('duplicate', (failed) =>
      failed.length === 0
        ? passed('the same Svc-Delivery was answered 2xx both times')
        : {
            verdict: 'fail',
            why: `a delivery sent twice with the same Svc-Delivery got ${failed.map((r) => `${answerOf(r)} (${r.label})`).join(', ')}: a non-2xx answer to a redelivery is retried until it dead-letters`,
            fix: 'dedupe on Svc-Delivery: when it was handled already, answer 2xx without acting again (a unique-key conflict means "done")',
          },
    ),
    answers('forward_compat', (failed) =>
      failed.length === 0
        ? passed('an unknown event type and a known one with extra fields were answered 2xx')
        : {
            verdict: 'fail',
            why: `${listed(failed)}: the service adds event types and fields without notice, and a refused delivery is retried until it dead-letters`,
            fix: 'answer 2xx to event types you do not handle, and let unknown fields through (no strict parsing of event bodies)',
          },
    ),
    timeCheck(plan, graded, result),
    redirectCheck(graded, result),
    result('transport', [], transportCheck(plan)),
  ];
}

/** A request as the report shows it (without what only grading reads). */
const shown = ({ label, request, expected, status, time_ms, error, verdict }: Graded): CheckedRequest => ({ label, request, expected, status, time_ms, error, verdict });

/** Why valid deliveries failed: when none was accepted, what the answers say is wrong. */
function validFailure(plan: Plan, failed: Graded[], all: Graded[], accepted: boolean): Verdict {
  const fail = (why: string, fix: string): Verdict => ({ verdict: 'fail', why, fix });
  const plain = failed.filter((r) => r.plain);
  if (!accepted && plain.length > 0) {
    const statuses = [...new Set(plain.map((r) => r.status))];
    const path = plan.url.pathname;
    const every = `every correctly signed delivery (${plain.length}) was answered`;
    if (statuses.length === 1 && statuses[0] === 404) return fail(`${every} 404: nothing answers POST ${path} there`, `wrong path? Give the URL of the route your app mounts its webhook handler on`);
    if (statuses.length === 1 && statuses[0] === 405) return fail(`${every} 405: ${path} does not take POST`, 'deliveries are POSTs: mount the webhook handler for POST on this path');
    if (plain.every(is4xx)) {
      return fail(
        `${every} ${statuses.join(', ')}: the receiver refused every signature that verifies`,
        'check the secret (the endpoint\'s own) and that the raw body is signed as t.body: HMAC-SHA256 of "<t>.<raw body>", t from Svc-Signature, a dot, then the bytes exactly as received',
      );
    }
    if (plain.every((r) => r.status !== null && r.status >= 500)) return fail(`${every} ${statuses.join(', ')}: the receiver fails on deliveries that verify`, "read the receiver's log for the error it hit");
    if (plain.every((r) => r.status === null)) {
      return fail(`no correctly signed delivery got an HTTP answer: ${[...new Set(plain.map((r) => r.error))].join('; ')}`, 'answer with an HTTP/1.1 status line and headers (under 16 KB), 2xx once the signature verifies');
    }
    return fail(`no correctly signed delivery was accepted: ${listed(plain)}`, "answer 2xx to every delivery whose signature verifies over the raw body, with the endpoint's secret");
  }
  const [relaid, rotated] = all.filter((r) => !r.plain);
  if (failed.length === 1 && failed[0] === relaid) {
    return fail(
      `the same event type was answered 2xx when compact, but ${answerOf(relaid)} when laid out differently: the receiver verifies re-serialized JSON, not the bytes it received`,
      'verify Svc-Signature over the raw body exactly as received (express.raw(), request.get_data()), then parse it',
    );
  }
  if (failed.length === 1 && failed[0] === rotated) {
    return fail(
      `a header with two v1= signatures, the valid one first, was answered ${answerOf(rotated)}: the receiver reads only one v1= entry (the last?)`,
      'accept the delivery when any v1= entry matches (a sender rotating secrets signs with each)',
    );
  }
  return fail(`${failed.length} of ${all.length} correctly signed deliveries were not answered 2xx: ${listed(failed)}`, "answer 2xx to every delivery whose signature verifies over the raw body, with the endpoint's secret");
}

type Result = (id: CheckId, requests: Graded[], v: Verdict) => CheckResult;

/** Every answer within the timeout; a warning past half of it. */
function timeCheck(plan: Plan, graded: Graded[], result: Result): CheckResult {
  const late = graded.filter(isTimeout);
  const limit = seconds(plan.timeoutMs);
  const fix = 'answer 2xx first and do the work afterwards (a queue or a background job)';
  if (late.length > 0) {
    return result('time', late, { verdict: 'fail', why: `${late.length} of ${graded.length} deliveries got no answer within ${limit}; each would be a failed attempt, retried`, fix });
  }
  const slowest = graded.reduce((a, b) => (b.time_ms > a.time_ms ? b : a));
  if (slowest.time_ms > plan.timeoutMs / 2) {
    return result('time', [slowest], { verdict: 'warn', why: `the slowest answer took ${slowest.time_ms} ms (${slowest.label}), more than half of the ${limit} allowed`, fix });
  }
  return result('time', [slowest], passed(`every answer within ${limit}; the slowest in ${slowest.time_ms} ms`));
}

function redirectCheck(graded: Graded[], result: Result): CheckResult {
  const redirected = graded.filter(isRedirect);
  if (redirected.length === 0) return result('redirects', [], passed('no answer was a redirect'));
  return result('redirects', redirected, {
    verdict: 'fail',
    why: `${redirected.length} of ${graded.length} deliveries were answered with a redirect (${[...new Set(redirected.map((r) => r.status))].join(', ')}): deliveries do not follow redirects, so each is a failed attempt`,
    fix: 'let the webhook URL answer itself: exempt it from login, https and trailing-slash redirects, or register the final URL',
  });
}

/** Plain http:// is for loopback and named test hosts only: a live endpoint must be https. */
function transportCheck(plan: Pick<Plan, 'url' | 'allowedHosts'>): Verdict {
  const host = plan.url.hostname.toLowerCase();
  if (plan.url.protocol === 'https:') return passed('https');
  if (isLoopbackHost(host)) return passed(`plain http:// to ${host}, a loopback host: fine for local tests`);
  if (hostIsAllowed(host, plan.allowedHosts)) return passed(`plain http:// to ${host}, an allowed test host`);
  return {
    verdict: 'fail',
    why: `plain http:// to ${host}, not localhost, 127.0.0.1 or [::1] nor an allowed test host: a live endpoint must be https (the service refuses http:// for one)`,
    fix: 'serve the receiver over https (behind a TLS-terminating proxy or tunnel) and register the https:// URL',
  };
}
