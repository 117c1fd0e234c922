import { hostIsAllowed, isLoopbackHost } from '../../../contract/network.js';
import type { CheckedRequest, CheckId, CheckResult } from '../../../contract/webhook-check.js';
import type { Plan } from './index.js';

// The verdicts. Each flaw is graded by one check only: a redirect by "No redirects", an answer
// that did not come within the timeout by "Time"; the other checks skip those requests and
// grade the answers that did come, so a receiver fails exactly the checks for its flaws.

/** A delivery sent and its answer; `check` says which check grades it. */
export type Sent = Omit<CheckedRequest, 'verdict'> & { check: CheckId };

export const isTimeout = (r: Pick<Sent, 'status' | 'error'>) => r.status === null && r.error !== null && r.error.startsWith('timeout');
const isRedirect = (r: Pick<Sent, 'status'>) => r.status !== null && r.status >= 300 && r.status < 400;
const is2xx = (r: Sent) => r.status !== null && r.status >= 200 && r.status < 300;
const is4xx = (r: Sent) => r.status !== null && r.status >= 400 && r.status < 500;

type Graded = CheckedRequest & { check: CheckId };
const answerOf = (r: Sent) => (r.status === null ? `no answer (${r.error})` : String(r.status));
const listed = (rs: Graded[]) => rs.map((r) => `${r.label} → ${answerOf(r)}`).join('; ');
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

const TITLES: Record<CheckId, string> = {
  valid: 'Valid deliveries',
  bad: 'Bad deliveries',
  duplicate: 'Duplicate delivery',
  forward_compat: 'Forward compatibility',
  time: 'Time',
  redirects: 'No redirects',
  transport: 'Transport',
};

export function grade(plan: Plan, sent: Sent[]): CheckResult[] {
  const graded: Graded[] = sent.map((r) => ({
    ...r,
    verdict: isRedirect(r) || isTimeout(r) ? 'skipped' : (r.expected === '2xx' ? is2xx(r) : is4xx(r)) ? 'pass' : 'fail',
  }));
  const of = (id: CheckId) => graded.filter((r) => r.check === id);
  const result = (id: CheckId, requests: Graded[], v: Pick<CheckResult, 'verdict' | 'why' | 'fix'>): CheckResult => ({
    id,
    title: TITLES[id],
    ...v,
    requests: requests.map(({ check: _check, ...r }) => r),
  });
  /** Checks 1-4: pass when every answer they grade passed; warn when they had none to grade. */
  const answers = (id: CheckId, onFail: (failed: Graded[], all: Graded[]) => Pick<CheckResult, 'why' | 'fix'>, passWhy: string): CheckResult => {
    const all = of(id);
    const failed = all.filter((r) => r.verdict === 'fail');
    if (failed.length > 0) return result(id, all, { verdict: 'fail', ...onFail(failed, all) });
    if (all.every((r) => r.verdict === 'skipped')) {
      return result(id, all, { verdict: 'warn', why: 'nothing to grade: every answer was a redirect or came too late (see No redirects and Time)', fix: 'fix those first, then run the check again' });
    }
    const skipped = all.filter((r) => r.verdict === 'skipped').length;
    return result(id, all, { verdict: 'pass', why: `${passWhy}${skipped ? ` (${skipped} not graded here: redirect or timeout)` : ''}`, fix: null });
  };

  const relaid = of('valid').at(-1)!;
  return [
    answers(
      'valid',
      (failed, all) =>
        failed.length === 1 && failed[0] === relaid
          ? {
              why: `the same event type was answered 2xx when compact, but ${answerOf(relaid)} when laid out differently: the receiver verifies re-serialized JSON, not the bytes it received`,
              fix: 'verify Svc-Signature over the raw body exactly as received (express.raw(), request.get_data()), then parse it',
            }
          : {
              why: `${failed.length} of ${all.length} correctly signed deliveries were not answered 2xx: ${listed(failed)}${all.every(is4xx) ? ' (all refused: does the receiver verify with this secret?)' : ''}`,
              fix: "answer 2xx to every delivery whose signature verifies over the raw body, with the endpoint's secret",
            },
      `${plan.types.length} event type${plan.types.length === 1 ? '' : 's'} and a body laid out differently (whitespace, \\u escapes, key order) were answered 2xx`,
    ),
    answers(
      'bad',
      (failed, all) => {
        const accepted = failed.filter(is2xx);
        if (accepted.length > 0) {
          return {
            why: `${accepted.length} of ${all.length} bad deliveries were accepted (2xx): ${listed(accepted)}`,
            fix: 'verify Svc-Signature (HMAC-SHA256 of "<t>.<raw body>", t within 300 s) before acting, and answer 400 when it does not verify',
          };
        }
        return {
          why: `${failed.length} of ${all.length} bad deliveries were not answered 4xx: ${listed(failed)}; a 5xx (or a dropped connection) says your server failed, not the request: it sets off error alerts, and a sender keeps retrying it`,
          fix: 'answer 400 (never 5xx) when a signature does not verify',
        };
      },
      'all 6 bad deliveries (no, malformed, wrong-secret, changed-body, stale, body-only signatures) were refused with 4xx',
    ),
    answers(
      'duplicate',
      (failed) => ({
        why: `a delivery sent twice with the same Svc-Delivery got ${failed.map((r) => `${answerOf(r)} (${r.label})`).join(', ')}: a non-2xx answer to a redelivery is retried until it dead-letters`,
        fix: 'dedupe on Svc-Delivery: when it was handled already, answer 2xx without acting again (a unique-key conflict means "done")',
      }),
      'the same Svc-Delivery was answered 2xx both times',
    ),
    answers(
      'forward_compat',
      (failed) => ({
        why: `${listed(failed)}: the service adds event types and fields without notice, and a refused delivery is retried until it dead-letters`,
        fix: 'answer 2xx to event types you do not handle, and let unknown fields through (no strict parsing of event bodies)',
      }),
      'an unknown event type and a known one with extra fields were answered 2xx',
    ),
    timeCheck(plan, graded, result),
    redirectCheck(graded, result),
    { id: 'transport', title: TITLES.transport, ...transportCheck(plan), requests: [] },
  ];
}

type Result = (id: CheckId, requests: Graded[], v: Pick<CheckResult, 'verdict' | 'why' | 'fix'>) => CheckResult;

/** Every answer within the timeout; a warning past half of it. */
function timeCheck(plan: Plan, graded: Graded[], result: Result): CheckResult {
  const late = graded.filter(isTimeout);
  const limit = seconds(plan.timeoutMs);
  if (late.length > 0) {
    return result('time', late, {
      verdict: 'fail',
      why: `${late.length} of ${graded.length} deliveries got no answer within ${limit}; each would be a failed attempt, retried`,
      fix: 'answer 2xx first and do the work afterwards (a queue or a background job)',
    });
  }
  const slowest = graded.reduce((a, b) => (b.time_ms > a.time_ms ? b : a));
  if (slowest.time_ms > plan.timeoutMs / 2) {
    return result('time', [slowest], {
      verdict: 'warn',
      why: `the slowest answer took ${slowest.time_ms} ms (${slowest.label}), more than half of the ${limit} allowed`,
      fix: 'answer 2xx first and do the work afterwards (a queue or a background job)',
    });
  }
  return result('time', [slowest], { verdict: 'pass', why: `every answer within ${limit}; the slowest in ${slowest.time_ms} ms`, fix: null });
}

function redirectCheck(graded: Graded[], result: Result): CheckResult {
  const redirected = graded.filter(isRedirect);
  if (redirected.length === 0) return result('redirects', [], { verdict: 'pass', why: 'no answer was a redirect', fix: null });
  return result('redirects', redirected, {
    verdict: 'fail',
    why: `${redirected.length} of ${graded.length} deliveries were answered with a redirect (${[...new Set(redirected.map((r) => r.status))].join(', ')}): deliveries do not follow redirects, so each is a failed attempt`,
    fix: 'let the webhook URL answer itself: exempt it from login, https and trailing-slash redirects, or register the final URL',
  });
}

/** Plain http:// is for loopback and named test hosts only: a live endpoint must be https. */
function transportCheck(plan: Pick<Plan, 'url' | 'allowedHosts'>): Pick<CheckResult, 'verdict' | 'why' | 'fix'> {
  const host = plan.url.hostname.toLowerCase();
  if (plan.url.protocol === 'https:') return { verdict: 'pass', why: 'https', fix: null };
  if (isLoopbackHost(host)) return { verdict: 'pass', why: `plain http:// to ${host}, a loopback host: fine for local tests`, fix: null };
  if (hostIsAllowed(host, plan.allowedHosts)) return { verdict: 'pass', why: `plain http:// to ${host}, an allowed test host`, fix: null };
  return {
    verdict: 'warn',
    why: `plain http:// to ${host}, not localhost, 127.0.0.1 or [::1] nor an allowed test host: a live endpoint must be https (the service refuses http:// for one)`,
    fix: 'serve the receiver over https (behind a TLS-terminating proxy or tunnel) and register the https:// URL',
  };
}
