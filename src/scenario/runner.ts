import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ROUTES, type RouteFacts } from '../../contract/routes.js';
import { verifySignature } from '../../contract/signature.js';
import { CONTROL_PREFIX } from '../../contract/control/routes.js';
import { CONTROL_TOKEN_HEADER } from '../../contract/network.js';
import { parseDuration } from '../../contract/formats.js';
import { send, TransportTimeout } from '../client/transport.js';
import { networkMessage, SvcError } from '../client/error.js';
import type { ControlApi } from '../client/control.js';
import { firstDifference, shown, type Difference } from './expect.js';
import { RefersToSkipped, refsIn, resolve, resolveString, Unresolved, valuesAt, type EnvValue, type Outcome, type RefContext } from './refs.js';
import type { Received, WebhookReceiver } from './receiver.js';
import type { Scenario, Step } from './format.js';

// The one step engine (docs/scenarios.md): plays a scenario's steps in order against a host and
// says of each whether it passed, failed or was skipped, and why. `svc scenario run`, `svc
// trigger`, the testing API's runScenario and `svc parity` (which records what it returns) all
// run it. A step that fails does not stop the scenario: later steps still run (a clean-up step
// runs whenever what it removes exists). A 429 is waited out (Retry-After) and sent again: rate
// limits are the host's budget, not its behaviour. A host that cannot be reached stops the run
// (SvcError NETWORK_ERROR / TIMEOUT, exit 1).

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

export interface RunOptions<S extends Step = Step> {
  baseUrl: string;
  apiKey: string;
  /** The emulator's control token, sent with /_emulator requests once the host proved to be one. */
  controlToken?: string;
  env: Record<string, EnvValue>;
  /** This run's nonce (${.run}); random when absent. */
  run?: string;
  timeoutMs: number;
  /** The key is a live key: steps the spec allows only for test keys are skipped. */
  live: boolean;
  /** The emulator's control API, or why the host is not one (its emulator-only steps are skipped). */
  emulator: ControlApi | { not: string };
  /** Where webhooks arrive; `register`: the runner subscribes an endpoint for the scenario's webhook steps. */
  webhook?: { receiver: WebhookReceiver; url: string; register: boolean; skip?: string; waitMs?: number };
  only?: string[];
  skip?: string[];
  /** Parity's recording: a webhook step keeps what arrived (each delivery or its absence, any signature) and never fails. */
  recordOnly?: boolean;
  /** The Authorization header of a request step (parity's keys); `Bearer <apiKey>` when absent. */
  authorization?(step: S): string | undefined;
  /** Called after each step (progress lines; parity's recording). */
  onStep?(step: S, result: StepResult, ctx: RefContext): void;
  sleep?(ms: number): Promise<void>;
}

export interface StepResult {
  name: string;
  outcome: 'pass' | 'fail' | 'skip';
  ms: number;
  /** What the step did: "POST /v1/api/payment-links → 201", "webhook payment.completed". */
  did: string;
  /** Why it was skipped or failed. */
  reason?: string;
  failure?: Difference;
  request?: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  /** The raw answer of a request step. */
  answer?: Answer;
  /** A reference that could not be resolved when the step ran (parity records it as not run). */
  unresolved?: string;
  /** A webhook step's deliveries by event type, with whether each signature verified. */
  deliveries?: Map<string, Received & { signatureValid: boolean }>;
}

const MAX_429_RETRIES = 5;
const ROUTE_LIST: readonly RouteFacts[] = Object.values(ROUTES);
const DEFAULT_WITHIN_MS = 30_000;
const SECRET_FIELD = /pin|otp|secret|passw|token|cvv|cvc/i;

/** The contract route a step's path template exercises ("POST /v1/api/payment-links/:id/simulate"), by the emulator's matching order. */
export function routeOfStep(method: string, pathTemplate: string): string | null {
  const path = pathTemplate.replace(/\$\{[^}]+\}/g, 'x').split('?')[0];
  for (const route of ROUTE_LIST) {
    if (route.method !== method) continue;
    if (new RegExp(`^${route.path.replace(/:[a-z_]+/g, '[^/]+')}$`).test(path)) return `${route.method} ${route.path}`;
  }
  return null;
}

const actionOf = (step: Step) => (['request', 'webhook', 'advance', 'otp', 'fault'] as const).find((a) => step[a] !== undefined)!;
const isControlPath = (path: string) => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);

/** Why a step cannot run with these options (before anything it refers to is looked at), or undefined. */
function skipReason(step: Step, options: RunOptions<never>): string | undefined {
  if (options.only && !options.only.includes(step.name)) return 'not named by --only';
  if (options.skip?.includes(step.name)) return 'named by --skip';
  const action = actionOf(step);
  const [method, path] = step.request?.split(' ') ?? [];
  const needsEmulator = action === 'advance' || action === 'otp' || action === 'fault' || (path !== undefined && isControlPath(path));
  if (needsEmulator && 'not' in options.emulator) return `emulator only (${action === 'request' ? 'the control API' : action}): ${options.emulator.not}`;
  if (action === 'webhook' && !options.webhook) return `emulator only (webhook): ${'not' in options.emulator ? options.emulator.not : 'no receiver'}; give --webhook-url, a public URL that forwards to this runner`;
  if (action === 'webhook' && options.webhook?.skip) return options.webhook.skip;
  if (options.live && method !== undefined) {
    const route = routeOfStep(method, path);
    if (route === 'POST /v1/api/payment-links/:id/simulate') return 'test keys only: the spec allows simulate with a test key alone';
    if (route === 'POST /v1/api/charges' && valuesAt(step.body, 'outcome').length > 0) return 'test keys only: a forced outcome is for test mandates alone';
  }
  return undefined;
}

/** A body as a failure shows it: fields that hold a PIN, an OTP or a secret as [redacted]. */
function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) && (v === null || typeof v !== 'object') ? '[redacted]' : redacted(v)]));
}

class StepFailure extends Error {
  constructor(message: string, readonly failure?: Difference) {
    super(message);
  }
}

export async function runScenario<S extends Step>(scenario: Scenario & { steps: S[] }, options: RunOptions<S>): Promise<StepResult[]> {
  const ctx: RefContext = { run: options.run ?? randomBytes(4).toString('hex'), env: options.env, webhookUrl: options.webhook?.url, outcomes: new Map() };
  const sent = new Map<string, unknown>();
  const faults: string[] = [];
  const results: StepResult[] = [];
  const mark = options.webhook?.receiver.mark() ?? 0;
  const endpoint = await subscribe(scenario, options);
  try {
    for (const step of scenario.steps) {
      const started = performance.now();
      const result = await play(step, options, ctx, { sent, faults, mark, endpoint }).catch((err: unknown) => failed(step, err));
      result.ms = Math.round(performance.now() - started);
      if (result.outcome === 'skip') ctx.outcomes.set(step.name, { skipped: result.reason, headers: {}, body: undefined });
      results.push(result);
      options.onStep?.(step, result, ctx);
    }
  } finally {
    await cleanUp(options, endpoint, faults);
  }
  return results;
}

interface Played {
  sent: Map<string, unknown>;
  faults: string[];
  mark: number;
  endpoint: Endpoint | undefined;
}

/** A thrown skip or failure as the step's result; anything else (the host unreachable) ends the run. */
function failed(step: Step, err: unknown): StepResult {
  const base = { name: step.name, ms: 0, did: describe(step) };
  if (err instanceof RefersToSkipped) return { ...base, outcome: 'skip', reason: err.message };
  if (err instanceof Unresolved) return { ...base, outcome: 'fail', reason: err.message, unresolved: err.message };
  if (err instanceof StepFailure) return { ...base, outcome: 'fail', reason: err.message, failure: err.failure };
  if (err instanceof SvcError && (err.code === 'NETWORK_ERROR' || err.code === 'TIMEOUT')) throw err;
  if (err instanceof SvcError) return { ...base, outcome: 'fail', reason: `${err.code}${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}` };
  throw err;
}

/** What a step does, as its line shows it before (or without) an answer. */
const describe = (step: Step): string => {
  if (step.request) return step.request;
  if (step.webhook) return `webhook ${[step.webhook].flat().join(', ')}`;
  if (step.fault) return `fault ${typeof step.fault === 'string' ? step.fault : step.fault.kind}`;
  return step.advance ? `advance ${step.advance}` : `otp for step ${step.otp}`;
};

async function play<S extends Step>(step: S, options: RunOptions<S>, ctx: RefContext, p: Played): Promise<StepResult> {
  const base = { name: step.name, ms: 0, did: describe(step) };
  const skipped = skipReason(step, options) ?? refersToSkipped(step, ctx);
  if (skipped !== undefined) return { ...base, outcome: 'skip', reason: skipped };
  let result: StepResult;
  let outcome: Outcome;
  if (step.request) {
    const { answer, request } = await callStep(step, options, ctx, p.sent);
    outcome = { status: answer.status, headers: answer.headers, body: answer.json };
    result = { ...base, outcome: 'pass', did: `${request.method} ${request.path} → ${answer.status}`, request, answer };
  } else if (step.webhook) {
    const deliveries = await webhookStep(step, options, ctx, p);
    const [first] = deliveries.values();
    outcome = { headers: first?.headers ?? {}, body: first && parse(first.body) };
    result = { ...base, outcome: 'pass', deliveries };
  } else {
    outcome = { headers: {}, body: await controlStep(step, options, ctx, p) };
    result = { ...base, outcome: 'pass' };
  }
  ctx.outcomes.set(step.name, outcome);
  const difference = check(resolve(step.expect ?? {}, ctx), outcome);
  if (difference) return { ...result, outcome: 'fail', reason: `${difference.where}: expected ${difference.expected}, received ${difference.received}`, failure: difference };
  return result;
}

/** A step that refers to a skipped step (anywhere in it, its expect too) is skipped before it is sent. */
function refersToSkipped(step: Step, ctx: RefContext): string | undefined {
  const names = [...refsIn(step), ...(step.otp ? [{ ref: { kind: 'step', step: step.otp } }] : [])].flatMap(({ ref }) => (ref.kind === 'step' ? [ref.step] : []));
  const skipped = names.find((name) => ctx.outcomes.get(name)?.skipped !== undefined);
  return skipped && `refers to step ${skipped}, which was skipped`;
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The first expectation that does not hold. Without status or code, a request step expects a 2xx answer. */
function check(expect: NonNullable<Step['expect']>, outcome: Outcome): Difference | undefined {
  if (outcome.status !== undefined) {
    const [code] = valuesAt(outcome.body, 'error.code');
    const received = `${outcome.status}${code ? ` (${String(code)})` : ''}`;
    if (expect.status === undefined && expect.code === undefined && (outcome.status < 200 || outcome.status > 299)) return { where: 'status', expected: '2xx', received };
    if (expect.status !== undefined && expect.status !== outcome.status) return { where: 'status', expected: String(expect.status), received };
    if (expect.code !== undefined && expect.code !== code) return { where: 'code', expected: JSON.stringify(expect.code), received: shown(code) };
  }
  for (const [name, value] of Object.entries(expect.headers ?? {})) {
    const d = firstDifference(value, outcome.headers[name.toLowerCase()], `header:${name.toLowerCase()}`, name);
    if (d) return d;
  }
  return expect.body === undefined ? undefined : firstDifference(expect.body, outcome.body);
}

async function callStep<S extends Step>(step: S, options: RunOptions<S>, ctx: RefContext, sent: Map<string, unknown>) {
  const [method, template] = step.request!.split(' ');
  let path = resolveString(template, ctx);
  const query = step.query && resolve(step.query, ctx);
  if (query && Object.keys(query).length) path += `${path.includes('?') ? '&' : '?'}${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'svc-scenario' };
  if (isControlPath(path)) {
    if (options.controlToken) headers[CONTROL_TOKEN_HEADER] = options.controlToken;
  } else {
    const authorization = options.authorization ? options.authorization(step) : `Bearer ${options.apiKey}`;
    if (authorization !== undefined) headers.authorization = authorization;
  }
  if (step.idempotency_key !== undefined) {
    const route = ROUTE_LIST.find((r) => `${r.method} ${r.path}` === routeOfStep(method, template));
    headers[(route?.idempotency?.header ?? 'X-Idempotency-Key').toLowerCase()] = resolveString(step.idempotency_key, ctx);
  }
  for (const [k, v] of Object.entries(resolve(step.headers ?? {}, ctx))) headers[k.toLowerCase()] = String(v);
  const body = step.body === undefined ? undefined : resolve(step.body, ctx);
  if (body !== undefined) headers['content-type'] = 'application/json';
  sent.set(step.name, body);
  const answer = await exchange(options, method, path, headers, body === undefined ? undefined : JSON.stringify(body));
  return { answer, request: { method, path, headers, ...(body !== undefined && { body: redacted(body) }) } };
}

export async function exchange(options: Pick<RunOptions<never>, 'baseUrl' | 'timeoutMs' | 'sleep'>, method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  const url = options.baseUrl + path;
  for (let attempt = 0; ; attempt++) {
    let res;
    try {
      res = await send(url, { method, headers, body, timeoutMs: options.timeoutMs });
    } catch (err) {
      const timedOut = err instanceof TransportTimeout;
      throw new SvcError(timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', 0, timedOut ? `no answer from ${options.baseUrl} within ${options.timeoutMs} ms (${method} ${path})` : networkMessage(options.baseUrl, err), null);
    }
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    if (res.statusCode === 429 && attempt < MAX_429_RETRIES) {
      const header = flat['retry-after']?.trim();
      const seconds = header !== undefined && /^\d+$/.test(header) ? Number(header) : 1;
      await (options.sleep ?? ((ms) => new Promise((ok) => setTimeout(ok, ms))))(Math.min(seconds, 30) * 1000);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: flat, text: res.text, json };
  }
}

interface Endpoint {
  id?: string;
  secret?: string;
  error?: string;
}

/** The endpoint the runner registers for the scenario's webhook steps (their event types), before its first step. */
async function subscribe(scenario: Scenario, options: RunOptions<never>): Promise<Endpoint | undefined> {
  const events = [...new Set(scenario.steps.flatMap((s) => (s.webhook && !skipReason(s, options) ? [s.webhook].flat() : [])))];
  if (!options.webhook?.register || events.length === 0) return undefined;
  const answer = await exchange(options, 'POST', '/v1/api/webhook-endpoints', { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' }, JSON.stringify({ url: options.webhook.url, events }));
  const [[id], [secret], [error]] = ['data.endpoint.id', 'data.secret', 'error'].map((path) => valuesAt(answer.json, path));
  if (answer.status >= 300 || typeof id !== 'string') return { error: `could not register a webhook endpoint for ${events.join(', ')}: HTTP ${answer.status} ${shown(error ?? answer.text)}` };
  return { id, secret: typeof secret === 'string' ? secret : undefined };
}

/** Whatever happened: the runner's endpoint deleted and the scenario's faults removed. */
async function cleanUp(options: RunOptions<never>, endpoint: Endpoint | undefined, faults: string[]): Promise<void> {
  if (endpoint?.id) await exchange(options, 'DELETE', `/v1/api/webhook-endpoints/${endpoint.id}`, { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' }, undefined).catch(() => undefined);
  if (!('not' in options.emulator)) for (const id of faults) await options.emulator.del(`/faults/${encodeURIComponent(id)}`).catch(() => undefined);
}

async function webhookStep(step: Step, options: RunOptions<never>, ctx: RefContext, p: Played): Promise<NonNullable<StepResult['deliveries']>> {
  const types = [step.webhook!].flat();
  if (p.endpoint?.error) throw new StepFailure(p.endpoint.error);
  const within = step.within ? parseDuration(step.within) : (options.webhook!.waitMs ?? DEFAULT_WITHIN_MS);
  const secret = step.secret === undefined ? p.endpoint?.secret : resolveString(step.secret, ctx);
  const match = step.match === undefined ? undefined : resolve(step.match, ctx);
  const dataOf = (r: Received) => valuesAt(parse(r.body), 'data')[0];
  const { receiver } = options.webhook!;
  const got = await receiver.take(types, p.mark, within, (r) => match === undefined || firstDifference(match, dataOf(r)) === undefined);
  const missing = types.find((t) => !got.has(t));
  // Parity records what arrived, each delivery or its absence; a scenario fails on the first missing one.
  if (missing && !options.recordOnly) {
    const seconds = `${within / 1000}s`;
    const near = receiver.arrived(missing, p.mark)[0];
    if (!near) throw new StepFailure(`no ${missing} event arrived within ${seconds}`);
    const d = firstDifference(match, dataOf(near), '$.data');
    throw new StepFailure(`no ${missing} event matching arrived within ${seconds}${d ? `; the first one since the scenario began differs at ${d.where}: expected ${d.expected}, received ${d.received}` : ' (the ones that arrived were taken by earlier steps)'}`, d);
  }
  const out = new Map<string, Received & { signatureValid: boolean }>();
  for (const [type, r] of got) {
    const t = Number(/(?:^|,)\s*t=(\d+)/.exec(r.headers['svc-signature'] ?? '')?.[1] ?? 0);
    // Validity of the HMAC alone: "now" is the header's own t (a slow tunnel is not a bad signature).
    let valid = false;
    try {
      valid = secret !== undefined && verifySignature({ secret, header: r.headers['svc-signature'], body: r.body, now: t }).ok;
    } catch {
      valid = false;
    }
    out.set(type, { ...r, signatureValid: valid });
    if (!valid && !options.recordOnly) throw new StepFailure(`the ${type} delivery's Svc-Signature does not verify with the endpoint's secret`);
  }
  return out;
}

/** advance, otp and fault: the emulator's control API (skipReason kept them from any other host). */
async function controlStep(step: Step, options: RunOptions<never>, ctx: RefContext, p: Played): Promise<unknown> {
  const control = options.emulator;
  if ('not' in control) throw new StepFailure(control.not);
  if (step.advance) return (await control.advanceClock(step.advance)).data;
  if (step.otp) {
    const [phone] = valuesAt(p.sent.get(step.otp), 'manager_phone');
    if (typeof phone !== 'string') throw new StepFailure(`step ${step.otp} sent no manager_phone: otp names a POST /v1/api/sub-merchants/start step`);
    const [message] = (await control.otp(phone)).data.messages;
    if (!message) throw new StepFailure(`the emulator sent no OTP to the phone of step ${step.otp}`);
    return message;
  }
  const fault = resolve(step.fault, ctx);
  if (typeof fault === 'string') {
    const added = (await control.post<{ faults: { id: string }[] }>(`/faults/presets/${encodeURIComponent(fault)}/apply`)).data;
    p.faults.push(...added.faults.map((f) => f.id));
    return added;
  }
  const added = (await control.post<{ id: string }>('/faults', fault)).data;
  p.faults.push(added.id);
  return added;
}
