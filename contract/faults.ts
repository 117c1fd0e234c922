import { z } from 'zod';
import { DURATION_UP_TO_1H_PATTERN, parseDuration } from './formats.js';
import { messageOf } from './errors.js';

// The shape of a fault, once: the control API validates with it, the CLI checks its flags with
// it before sending, `--faults FILE` reads it, and the OpenAPI-style docs name its fields.
//
// A fault either acts on the merchant API (`route`) or on webhook deliveries (`deliveries`) or
// on a provider (`provider`). Exactly one of the three.

/** The answer's header naming the faults that fired (emulator/faults/api.ts; the request log keeps it). */
export const FAULT_HEADER = 'Svc-Fault';

/** "POST /v1/api/charges", "* /v1/api/payouts*", "POST /v1/api/payment-links/:id/simulate". */
const RoutePattern = z
  .string()
  .trim()
  .regex(/^(\*|GET|POST|DELETE) \/\S*$/i, 'must be "<METHOD> <path>", e.g. "POST /v1/api/charges" or "* /v1/api/payouts*" (METHOD: GET, POST, DELETE or *)')
  .transform((s) => s.replace(/^\S+/, (m) => m.toUpperCase()));

/** How the documents show a duration up to 1h: milliseconds, or text (the pattern lists the one-unit forms). */
const DURATION_JSON = [
  { type: 'integer', minimum: 0, maximum: 3_600_000 },
  { type: 'string', pattern: DURATION_UP_TO_1H_PATTERN },
];

const Duration = z.union([
  z.int().min(0).max(3_600_000),
  z.string().transform((s, ctx) => {
    try {
      const ms = parseDuration(s);
      if (ms > 3_600_000) throw new Error('at most 1h');
      return ms;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `a duration like 250ms, 2s or 1m (${messageOf(err)})` });
      return z.NEVER;
    }
  }),
]);

/** Fixed ("2s") or uniform between two bounds ("100ms..2s"). */
const Latency = z.union([
  Duration.transform((ms) => ({ min: ms, max: ms })),
  z.string().transform((s, ctx) => {
    const m = /^(.+?)\.\.(.+)$/.exec(s);
    const parts = m ? [Duration.safeParse(m[1]), Duration.safeParse(m[2])] : [];
    if (!m || !parts[0].success || !parts[1].success || parts[0].data > parts[1].data) {
      ctx.addIssue({ code: 'custom', message: 'a duration ("2s") or a range ("100ms..2s", low to high)' });
      return z.NEVER;
    }
    return { min: parts[0].data as number, max: parts[1].data as number };
  }),
]);

export const API_KINDS = ['status', 'latency', 'hang', 'reset', 'truncate'] as const;
export const DELIVERY_KINDS = ['duplicate', 'drop', 'delay', 'reorder'] as const;

export const FaultSpec = z
  .strictObject({
    route: RoutePattern.optional().meta({ description: 'Merchant API requests this fault acts on: "<METHOD> <path pattern>" (* matches anything, :name one path segment)' }),
    deliveries: z.strictObject({ event_type: z.string().optional(), endpoint_id: z.string().optional() }).optional().meta({ description: 'Webhook delivery attempts this fault acts on' }),
    provider: z.enum(['payouts', 'momo']).optional().meta({ description: 'A provider the emulator plays: the payout provider, or MoMo clearing on checkout' }),
    kind: z.enum([...API_KINDS, ...DELIVERY_KINDS, 'down']),
    status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional().meta({ description: 'kind status: the status answered (the spec envelope and code)' }),
    latency: Latency.optional().meta({
      description:
        'kind latency or delay: milliseconds, a duration up to 1h ("2s", "1m30s") or a uniform range "100ms..2s" (low to high; the pattern shows the single durations); kind reorder: the window (each attempt waits a random time up to it)',
      anyOf: DURATION_JSON,
    }),
    retry_after: z.int().min(0).max(3600).optional().meta({ description: 'kind status: a Retry-After header in seconds (429 sends 1 unless told)' }),
    after_commit: z.boolean().default(false).meta({ description: 'Run the request (its idempotency record is stored), then lose the response' }),
    environment: z.enum(['test', 'live']).optional(),
    key_name: z.string().optional().meta({ description: "Only requests made with this fixture key (e.g. acme-test)" }),
    times: z.int().min(1).max(1_000_000).optional().meta({ description: 'Fire for the next N matches, then retire' }),
    probability: z.number().min(0).max(1).optional().meta({ description: 'Fire on each match with this probability (seeded)' }),
    seed: z.int().min(0).max(2 ** 31 - 1).optional(),
    for: Duration.optional().meta({ description: 'kind down: how long the provider is down (emulator clock): milliseconds or a duration up to 1h ("30m", "1m30s")', anyOf: DURATION_JSON }),
  })
  .superRefine((f, ctx) => {
    const targets = [f.route, f.deliveries, f.provider].filter((t) => t !== undefined).length;
    if (targets !== 1) ctx.addIssue({ code: 'custom', path: ['route'], message: 'give exactly one of route, deliveries or provider' });
    const apiKind = (API_KINDS as readonly string[]).includes(f.kind);
    const deliveryKind = (DELIVERY_KINDS as readonly string[]).includes(f.kind);
    if (f.route !== undefined && !apiKind) ctx.addIssue({ code: 'custom', path: ['kind'], message: `a route fault is one of ${API_KINDS.join(', ')}` });
    if (f.deliveries !== undefined && !deliveryKind) ctx.addIssue({ code: 'custom', path: ['kind'], message: `a delivery fault is one of ${DELIVERY_KINDS.join(', ')}` });
    if (f.provider !== undefined && f.kind !== 'down') ctx.addIssue({ code: 'custom', path: ['kind'], message: 'a provider fault is kind down' });
    if (f.kind === 'status' && f.status === undefined) ctx.addIssue({ code: 'custom', path: ['status'], message: 'kind status needs a status (429, 500, 502 or 503)' });
    if (f.kind !== 'status' && f.retry_after !== undefined) ctx.addIssue({ code: 'custom', path: ['retry_after'], message: 'retry_after goes with kind status' });
    if (f.kind !== 'status' && f.status !== undefined) ctx.addIssue({ code: 'custom', path: ['status'], message: 'status goes with kind status' });
    if ((f.kind === 'latency' || f.kind === 'delay' || f.kind === 'reorder') && f.latency === undefined) ctx.addIssue({ code: 'custom', path: ['latency'], message: `kind ${f.kind} needs a latency ("2s" or "100ms..2s")` });
    if (f.kind === 'down' && f.for === undefined) ctx.addIssue({ code: 'custom', path: ['for'], message: 'kind down needs for (how long, e.g. "1h")' });
    if (f.kind === 'truncate' && !f.after_commit) ctx.addIssue({ code: 'custom', path: ['after_commit'], message: 'truncate cuts the real response short, so it needs after_commit' });
    if (f.after_commit && !['status', 'latency', 'hang', 'reset', 'truncate'].includes(f.kind)) ctx.addIssue({ code: 'custom', path: ['after_commit'], message: 'after_commit goes with an API fault' });
    if (f.times !== undefined && f.probability !== undefined) ctx.addIssue({ code: 'custom', path: ['probability'], message: 'give times or probability, not both' });
    if (f.seed !== undefined && f.probability === undefined && f.latency === undefined) ctx.addIssue({ code: 'custom', path: ['seed'], message: 'seed goes with probability or a latency range' });
    if ((f.environment !== undefined || f.key_name !== undefined) && f.route === undefined) ctx.addIssue({ code: 'custom', path: ['environment'], message: 'environment and key_name narrow a route fault' });
  })
  // The rules above, for the OpenAPI document: the three targets as oneOf, the rest as conditions.
  .meta({
    oneOf: [
      { title: 'A merchant API fault', required: ['route'], properties: { deliveries: false, provider: false, kind: { enum: [...API_KINDS] } } },
      {
        title: 'A webhook delivery fault',
        required: ['deliveries'],
        properties: { route: false, provider: false, kind: { enum: [...DELIVERY_KINDS] }, after_commit: { const: false }, environment: false, key_name: false },
      },
      {
        title: 'A provider outage',
        required: ['provider', 'for'],
        properties: { route: false, deliveries: false, kind: { const: 'down' }, after_commit: { const: false }, environment: false, key_name: false },
      },
    ],
    // (Each `required` names its properties beside it, as linters ask; `{}` adds no rule.)
    allOf: [
      { if: { required: ['kind'], properties: { kind: { const: 'status' } } }, then: { required: ['status'], properties: { status: {} } }, else: { properties: { status: false, retry_after: false } } },
      { if: { required: ['kind'], properties: { kind: { enum: ['latency', 'delay', 'reorder'] } } }, then: { required: ['latency'], properties: { latency: {} } } },
      { if: { required: ['kind'], properties: { kind: { const: 'truncate' } } }, then: { required: ['after_commit'], properties: { after_commit: { const: true } } } },
      { not: { required: ['times', 'probability'], properties: { times: {}, probability: {} } } },
      {
        if: { required: ['seed'], properties: { seed: {} } },
        then: { anyOf: [{ required: ['probability'], properties: { probability: {} } }, { required: ['latency'], properties: { latency: {} } }] },
      },
    ],
  });
export type FaultSpec = z.infer<typeof FaultSpec>;
export type FaultInput = z.input<typeof FaultSpec>;

/** A file for `svc emulator start --faults FILE`: {"faults": [...]} or a bare array. */
export const FaultFile = z.preprocess(
  // A bare array reads as {"faults": [...]}, so a problem is always named faults.<i>.<field>.
  (v) => (Array.isArray(v) ? { faults: v } : v),
  z.strictObject({ $comment: z.string().optional(), faults: z.array(FaultSpec) }).transform((f) => f.faults),
);
