import { z } from 'zod';

// The report of `svc webhooks check <url>` (its --json output) and of the testing API's
// `emu.checkWebhookReceiver(url, { secret })`: one shape, published by both, so a merchant's
// script or test reads the same fields either way. src/webhooks/check/ builds it.

/** not_graded: what the check needs was not seen (no valid delivery was accepted, or every answer it grades was a redirect or too late). */
export const CheckVerdict = z.enum(['pass', 'fail', 'warn', 'not_graded']);

/** The nine checks, in the order they are reported. */
export const CHECK_IDS = ['valid', 'bad', 'timestamps', 'refusal_status', 'duplicate', 'forward_compat', 'time', 'redirects', 'transport'] as const;
export const CheckId = z.enum(CHECK_IDS);

/**
 * What a check holds the receiver to: `spec`, the service's rules (a flaw fails); `advice`, the
 * project's (a flaw warns, and fails under --strict / `strict: true`). docs/spec-gaps.md row 192.
 */
export const CheckBasis = z.enum(['spec', 'advice']);

export const CheckedRequest = z.object({
  label: z.string().meta({ description: 'What this delivery is, e.g. "payment.completed" or "timestamp 301 s old"' }),
  request: z.object({
    method: z.literal('POST'),
    url: z.string(),
    headers: z.record(z.string(), z.string()).meta({ description: 'The headers sent (the signature, never the secret)' }),
    body: z.string().meta({ description: 'The body sent, byte for byte' }),
  }),
  expected: z.enum(['2xx', '4xx', 'not 2xx']).meta({ description: '"not 2xx": any answer but an acceptance (a refusal, a failure, a dropped connection)' }),
  status: z.int().nullable().meta({ description: "The receiver's status; null when no answer came" }),
  time_ms: z.number().min(0).meta({ description: 'Until the status line arrived (or the attempt ended)' }),
  error: z.string().nullable().meta({ description: 'Why the attempt failed, as the delivery log says it (timeout, redirect, connection reset, not an HTTP/1.1 answer…); null for a non-redirect status' }),
  verdict: z.enum(['pass', 'fail', 'skipped']).meta({ description: 'skipped: a redirect or no answer within the timeout, which the redirects and time checks grade' }),
});

export const CheckResult = z.object({
  id: CheckId,
  title: z.string(),
  basis: CheckBasis,
  verdict: CheckVerdict,
  why: z.string().meta({ description: 'One line: what the receiver did' }),
  fix: z.string().nullable().meta({ description: 'One line: what to change (null when the check passed)' }),
  requests: z.array(CheckedRequest).meta({ description: "The deliveries this check grades (for time and redirects: the ones at fault, or the slowest)" }),
});

export const ReceiverReport = z
  .object({
    url: z.string(),
    timeout_ms: z.int().min(1),
    events: z.array(z.string()).meta({ description: 'The event types sent' }),
    strict: z.boolean().meta({ description: 'Advice checks fail instead of warning (--strict)' }),
    ok: z.boolean().meta({ description: 'No check failed (warnings and not graded allowed): the exit status 0 of svc webhooks check' }),
    counts: z.object({ pass: z.int(), fail: z.int(), warn: z.int(), not_graded: z.int() }),
    checks: z.array(CheckResult),
  })
  .meta({ id: 'ReceiverReport' });

export type CheckVerdict = z.infer<typeof CheckVerdict>;
export type CheckId = z.infer<typeof CheckId>;
export type CheckBasis = z.infer<typeof CheckBasis>;
export type CheckedRequest = z.infer<typeof CheckedRequest>;
export type CheckResult = z.infer<typeof CheckResult>;
export type ReceiverReport = z.infer<typeof ReceiverReport>;
