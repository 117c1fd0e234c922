import { randomBytes } from 'node:crypto';
import { routeOfStep, runScenario, type Answer, type StepResult } from '../scenario/runner.js';
import { refsIn, resolve, valuesAt, type RefContext } from '../scenario/refs.js';
import type { WebhookReceiver } from '../scenario/receiver.js';
import { Normalizer } from './normalize.js';
import type { RecordedScenario, RecordedStep } from './snapshot.js';
import type { Auth, ParityScenario, ParityStep, Rule } from './format.js';

// The parity suite through the scenario engine (src/scenario/runner.ts): each scenario played
// against a host through /v1 only (the paths are in the files; nothing here adds a request of
// its own), each step recorded as it ran, normalized (normalize.ts), with its rules. A step
// whose references cannot be resolved (the answer it needs failed) is recorded as not run.

export interface RunOptions {
  baseUrl: string;
  keys: { main: string; other?: string; restricted?: string };
  vars: Record<string, string>;
  /** With `skip`, the delivery steps are recorded as skipped for that reason instead of waited for. */
  webhook?: { url: string; receiver: WebhookReceiver; waitMs: number; skip?: string };
  timeoutMs: number;
  scenarios: ParityScenario[];
  /** Called after each scenario (progress on stderr). */
  onScenario?(recorded: RecordedScenario): void;
  /** How a 429 waits (tests replace it); real timers when absent. */
  sleep?(ms: number): Promise<void>;
}

/** Why a scenario cannot run with these options, or undefined. */
function skipReason(scenario: ParityScenario, options: Pick<RunOptions, 'keys' | 'vars' | 'webhook'>): string | undefined {
  const needs = scenario.needs ?? [];
  if (needs.includes('other-key') && !options.keys.other) return 'needs --other-api-key (a test key of a second merchant)';
  if (needs.includes('restricted-key') && !options.keys.restricted) return 'needs --restricted-api-key (a test key of this merchant with payments:read and without payments:create)';
  if (needs.includes('webhook') && !options.webhook) return 'needs --webhook-url';
  const vars = refsIn(scenario.steps).flatMap(({ ref }) => (ref.kind === 'env' ? [ref.name] : []));
  const missing = [...new Set(vars)].filter((v) => options.vars[v] === undefined);
  if (missing.length) return `needs ${missing.map((v) => `--var ${v}=…`).join(' ')}`;
  return undefined;
}

function authHeader(auth: Auth = 'main', keys: RunOptions['keys']): string | undefined {
  if (auth === 'none') return undefined;
  if (typeof auth === 'object') return auth.header;
  return `Bearer ${keys[auth]}`;
}

export async function runSuite(options: RunOptions): Promise<RecordedScenario[]> {
  const run = randomBytes(4).toString('hex');
  const normalizer = new Normalizer({ baseUrl: options.baseUrl, run, vars: options.vars, webhookUrl: options.webhook?.url, keys: options.keys });
  // --var values are text; one that is digits alone stands for a number (an amount).
  const env = Object.fromEntries(Object.entries(options.vars).map(([k, v]) => [k, /^\d{1,15}$/.test(v) ? Number(v) : v]));
  const out: RecordedScenario[] = [];
  for (const scenario of options.scenarios) {
    const skipped = skipReason(scenario, options);
    const recorded: RecordedScenario = { name: scenario.name, description: scenario.description, ...(skipped && { skipped }), steps: [] };
    if (!skipped) {
      normalizer.startScenario();
      const answers = new Map<string, Answer>();
      await runScenario(scenario, {
        baseUrl: options.baseUrl,
        apiKey: options.keys.main,
        env,
        run,
        timeoutMs: options.timeoutMs,
        live: false,
        emulator: { not: 'svc parity calls /v1 only' },
        webhook: options.webhook && { ...options.webhook, register: false },
        recordOnly: true,
        sleep: options.sleep,
        authorization: (step) => authHeader(step.auth, options.keys),
        onStep: (step, result, ctx) => recorded.steps.push(record(step, result, ctx, answers, normalizer)),
      });
    }
    out.push(recorded);
    options.onScenario?.(recorded);
  }
  return out;
}

/** `t=<unix>,v1=<hex>`'s format, the values aside. */
const signatureFormat = (value: string) => value.replace(/^t=\d+/, 't=<unix>').replace(/v1=[0-9a-f]{64}/g, 'v1=<hmac_sha256_hex>');

function record(step: ParityStep, result: StepResult, ctx: RefContext, answers: Map<string, Answer>, normalizer: Normalizer): RecordedStep {
  if (step.webhook) {
    const request = { method: 'RECEIVE', path: '<webhook_url>' };
    if (result.unresolved !== undefined) return { name: step.name, route: null, request, not_run: result.unresolved };
    if (result.outcome === 'skip') return { name: step.name, route: null, request, skipped: result.reason };
    const deliveries = [];
    for (const event of [step.webhook].flat()) {
      const r = result.deliveries?.get(event);
      if (!r) continue;
      const text = r.body.toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = { $text: text.slice(0, 200) };
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(r.headers)) {
        if (name === 'svc-signature') headers[name] = signatureFormat(value);
        else if (name === 'svc-event') headers[name] = value;
        else if (name === 'svc-delivery') headers[name] = normalizer.string(value);
        else if (name === 'content-type') headers[name] = value.split(';')[0].trim().toLowerCase();
      }
      deliveries.push({ event, headers, signature_valid: r.signatureValid, body: normalizer.body(json) });
    }
    return { name: step.name, route: null, request, deliveries };
  }
  const [method, template] = step.request!.split(' ');
  const route = routeOfStep(method, template);
  const { answer, request } = result;
  if (!answer || !request) return { name: step.name, route, request: { method, path: template }, not_run: result.unresolved ?? result.reason ?? 'not run' };
  answers.set(step.name, answer);
  const path = request.path;
  const rules = step.rules?.length ? Object.fromEntries(step.rules.map((r) => [r.name, holds(r, step.name, ctx, answers)])) : undefined;
  return {
    name: step.name,
    route,
    request: { method, path: normalizer.requestPath(path.split('?')[0]) + (path.includes('?') ? `?${normalizer.string(decodeURIComponent(path.slice(path.indexOf('?') + 1)), '', false)}` : '') },
    status: answer.status,
    headers: normalizer.headers(answer.headers, request.headers['x-trace-id']),
    body: answer.json === undefined ? { $text: answer.text.slice(0, 200) } : normalizer.body(answer.json, step.lists),
    ...(step.lists?.length && { lists: step.lists }),
    ...(rules && { rules }),
  };
}

/** A rule against the raw answers (before normalization: times compare as times). */
function holds(rule: Rule, self: string, ctx: RefContext, answers: Map<string, Answer>): boolean {
  const answer = answers.get(self)!;
  const at = (path: string) => valuesAt(answer.json, path);
  // Values as text (times, ids): an array where one belongs fails the rule (and a deep one would overflow String()).
  const texts = (path: string): string[] | undefined => {
    const all = at(path);
    return all.some(Array.isArray) ? undefined : all.map(String);
  };
  const value = (template: string) => {
    try {
      return String(resolve(template.replace(/\$\{this([:@])/g, `\${${self}$1`), ctx));
    } catch {
      return undefined;
    }
  };
  switch (rule.kind) {
    case 'sorted': {
      const times = texts(rule.path);
      return times !== undefined && times.every((t, i) => i === 0 || (rule.order === 'desc' ? times[i - 1] >= t : times[i - 1] <= t));
    }
    case 'equal': {
      const [a, b] = [value(rule.a), value(rule.b)];
      return a !== undefined && a === b;
    }
    case 'all-before': {
      const than = value(rule.than);
      return than !== undefined && (texts(rule.path)?.every((t) => t < than) ?? false);
    }
    case 'all-equal': {
      const expected = value(rule.value);
      return texts(rule.path)?.every((v) => v === expected) ?? false;
    }
    case 'max-length': {
      const [list] = at(rule.path);
      return Array.isArray(list) && list.length <= rule.max;
    }
    case 'contains':
    case 'excludes': {
      const wanted = value(rule.value);
      const values = texts(rule.path);
      if (wanted === undefined || values === undefined) return false;
      return values.includes(wanted) === (rule.kind === 'contains');
    }
    case 'same-body': {
      const other = answers.get(rule.as);
      return other !== undefined && other.status === answer.status && other.text === answer.text;
    }
  }
}
