import { z } from 'zod';
import { EVENT_TYPES } from '../../contract/common.js';
import { FaultSpec } from '../../contract/faults.js';
import { parseDuration } from '../../contract/formats.js';
import { valuesAt } from './refs.js';
import { messageOf } from '../../contract/errors.js';

// The scenario file (docs/scenarios.md): one zod schema that the runner validates with and that
// scenarios/scenario.schema.json is generated from (`npm run scenario-schema`). A step has a
// name, one action (request, webhook, advance, otp, fault) and an optional `expect`; values may
// hold references (refs.ts). What zod's shapes cannot say (one action a step, the keys that go
// with it, the matchers inside `body`) is checked in superRefine, so each problem has a path
// that load.ts turns into a line and a column.

const EventType = z.enum(EVENT_TYPES, { error: (i) => `unknown event type ${JSON.stringify(i.input)}: expected one of ${EVENT_TYPES.join(', ')}` });

const Duration = z.string().refine((s) => {
  try {
    return parseDuration(s) > 0;
  } catch {
    return false;
  }
}, 'expected a duration such as 500ms, 30s or 2h');

export const StepName = z.string().regex(/^[A-Za-z0-9_-]+$/, 'a step name is letters, digits, - and _');

const MATCHERS = ['$exists', '$matches', '$gte', '$lte', '$length', '$contains'] as const;
const Matcher = z.strictObject({ $exists: z.boolean(), $matches: z.string(), $gte: z.number(), $lte: z.number(), $length: z.int().min(0), $contains: z.unknown() }).partial();
export type Matcher = z.infer<typeof Matcher>;

/** A JSON value whose objects with `$` keys are matchers: each checked here, with its path. */
const Expected = z.unknown().superRefine(function check(value, ctx, path: PropertyKey[] = []): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) return value.forEach((v, i) => check(v, ctx, [...path, i]));
  const keys = Object.keys(value);
  if (!keys.some((k) => k.startsWith('$'))) return Object.entries(value).forEach(([k, v]) => check(v, ctx, [...path, k]));
  const parsed = Matcher.safeParse(value);
  for (const issue of parsed.error?.issues ?? []) {
    const message = issue.code === 'unrecognized_keys' ? `unknown matcher ${issue.keys.join(', ')} (matchers: ${MATCHERS.join(', ')})` : issue.message;
    ctx.addIssue({ code: 'custom', path: [...path, ...issue.path], message });
  }
  if (parsed.success && parsed.data.$contains !== undefined) check(parsed.data.$contains, ctx, [...path, '$contains']);
  if (parsed.success && typeof parsed.data.$matches === 'string') {
    try {
      new RegExp(parsed.data.$matches);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: [...path, '$matches'], message: messageOf(err) });
    }
  }
});

const Expect = z.strictObject({
  status: z.int().min(100).max(599).optional().meta({ description: 'The HTTP status (request steps)' }),
  code: z.string().optional().meta({ description: 'The error code, error.code of the answer (request steps)' }),
  body: Expected.optional().meta({ description: 'A subset of the answer (or the event): objects match field by field, arrays item by item in order; {$exists}, {$matches}, {$gte}, {$lte}, {$length} match a value, {$contains: <subset>} an array with an item that matches' }),
  headers: z.record(z.string(), Expected).optional().meta({ description: 'Headers by name (any case): a value or a matcher' }),
});

const ACTIONS = ['request', 'webhook', 'advance', 'otp', 'fault'] as const;
/** The keys that go with each action (name and expect go with all). */
const WITH: Record<(typeof ACTIONS)[number], string[]> = {
  request: ['query', 'headers', 'body', 'idempotency_key'],
  webhook: ['match', 'within', 'secret'],
  advance: [],
  otp: [],
  fault: [],
};

export const stepShape = {
  name: StepName,
  request: z.string().regex(/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/, 'expected "<METHOD> <path>", e.g. "POST /v1/api/payment-links"').optional(),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional().meta({ description: 'The JSON body; strings may hold ${step:path} and ${.env:NAME} references' }),
  idempotency_key: z.string().optional().meta({ description: "Sent in the route's idempotency header (X-Idempotency-Key, or Idempotency-Key for payroll runs)" }),
  webhook: z.union([EventType, z.array(EventType).min(1)]).optional().meta({ description: 'Waits for an event of this type (or one of each listed) for the merchant, since the scenario began' }),
  match: Expected.optional().meta({ description: "A subset the event's data must match" }),
  within: Duration.optional().meta({ description: 'How long to wait for the event (default 30s)' }),
  secret: z.string().optional().meta({ description: "The signing secret of the scenario's own endpoint (default: the runner's)" }),
  advance: Duration.optional().meta({ description: "Moves the emulator's clock (everything due on the way runs)" }),
  otp: StepName.optional().meta({ description: 'The OTP the emulator sent for that sub-merchant start step: ${<this step>:code}' }),
  fault: z.union([z.string(), FaultSpec]).optional().meta({ description: 'A fault preset name or a fault (as POST /_emulator/faults takes it); removed when the scenario ends' }),
  expect: Expect.optional(),
};

/** One action a step, and only the keys that go with it (and `extra`: another format's own). */
export const oneAction = (extra: string[]) => (step: Record<string, unknown>, ctx: z.RefinementCtx): void => {
  const actions = ACTIONS.filter((a) => step[a] !== undefined);
  if (actions.length !== 1) {
    ctx.addIssue({ code: 'custom', path: actions.length ? [actions[1]] : ['name'], message: `a step has exactly one action (${ACTIONS.join(', ')}); this one has ${actions.length ? actions.join(' and ') : 'none'}` });
    return;
  }
  const allowed = new Set(['name', 'expect', actions[0], ...WITH[actions[0]], ...extra]);
  for (const key of Object.keys(step)) if (!allowed.has(key) && step[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `${key} does not go with ${actions[0]}` });
  const kept = ['status', 'code'].filter((k) => valuesAt(step.expect, k).length > 0);
  if (actions[0] !== 'request' && kept.length) ctx.addIssue({ code: 'custom', path: ['expect', kept[0]], message: 'status and code are expected of request steps' });
};

export const Step = z.strictObject(stepShape).superRefine(oneAction([]));

export const scenarioShape = {
  $schema: z.string().optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.union([z.string(), z.number(), z.boolean()])).optional().meta({ description: 'Defaults of the variables ${.env:NAME} reads (--env NAME=VALUE overrides)' }),
};

/** Step names unique within the file. */
export function uniqueNames(scenario: { steps: { name: string }[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  scenario.steps.forEach((s, i) => {
    if (seen.has(s.name)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'name'], message: `a second step named ${s.name}` });
    seen.add(s.name);
  });
}

export const ScenarioFile = z.strictObject({ ...scenarioShape, steps: z.array(Step).min(1) }).superRefine(uniqueNames);
export type Step = z.infer<typeof Step>;
export type Scenario = z.infer<typeof ScenarioFile>;

/** scenarios/scenario.schema.json's text. */
export function scenarioJsonSchemaText(): string {
  const schema = z.toJSONSchema(ScenarioFile, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify({ $schema: schema.$schema, title: 'svc scenario file', ...schema }, null, 2)}\n`;
}
