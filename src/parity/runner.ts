import { randomBytes } from 'node:crypto';
import { ROUTES } from '../../contract/routes.js';
import { verifySignature } from '../../contract/signature.js';
import { send, TransportTimeout } from '../client/transport.js';
import { networkMessage, SvcError } from '../client/error.js';
import { dataOf, resolve, resolveString, Unresolved, valuesAt, varsIn, type Answer, type RefContext } from './refs.js';
import { Normalizer } from './normalize.js';
import type { RecordedScenario, RecordedStep } from './snapshot.js';
import { isDeliveries, type CallStep, type DeliveriesStep, type Rule, type Scenario } from './types.js';
import type { WebhookReceiver } from './receiver.js';

// The one runner: plays scenarios in order against a host, through /v1 only (the paths are in
// the scenarios; nothing here adds a request of its own), and returns their normalized
// recording. A 429 is waited out (Retry-After) and sent again: rate limits are the host's
// budget, not its behaviour. Nothing else is retried: a 5xx is an answer to record. A host
// that cannot be reached stops the run (SvcError NETWORK_ERROR / TIMEOUT, exit 1).

export interface RunOptions {
  baseUrl: string;
  keys: { main: string; other?: string; restricted?: string };
  vars: Record<string, string>;
  /** With `skip`, the delivery steps are recorded as skipped for that reason instead of waited for. */
  webhook?: { url: string; receiver: WebhookReceiver; waitMs: number; skip?: string };
  timeoutMs: number;
  scenarios: Scenario[];
  /** Called after each scenario (progress on stderr). */
  onScenario?(recorded: RecordedScenario): void;
  /** How a 429 waits (tests replace it); real timers when absent. */
  sleep?(ms: number): Promise<void>;
}

const MAX_429_RETRIES = 5;

/** The contract route a step's path template exercises ("POST /v1/api/payment-links/:id/simulate"), by the same matching order as the emulator's. */
export function routeOfStep(method: string, pathTemplate: string): string | null {
  const path = pathTemplate.replace(/\$\{[^}]+\}/g, 'x');
  for (const route of Object.values(ROUTES)) {
    if (route.method !== method) continue;
    const re = new RegExp(`^${route.path.replace(/:[a-z_]+/g, '[^/]+')}$`);
    if (re.test(path)) return `${route.method} ${route.path}`;
  }
  return null;
}

/** Why a scenario cannot run with these options, or undefined. */
function skipReason(scenario: Scenario, options: Pick<RunOptions, 'keys' | 'vars' | 'webhook'>): string | undefined {
  const needs = scenario.needs ?? [];
  if (needs.includes('other-key') && !options.keys.other) return 'needs --other-api-key (a test key of a second merchant)';
  if (needs.includes('restricted-key') && !options.keys.restricted) return 'needs --restricted-api-key (a test key of this merchant with payments:read and without payments:create)';
  if (needs.includes('webhook') && !options.webhook) return 'needs --webhook-url';
  const missing = [...new Set([...(scenario.vars ?? []), ...varsIn(scenario.steps)])].filter((v) => options.vars[v] === undefined);
  if (missing.length) return `needs ${missing.map((v) => `--var ${v}=…`).join(' ')}`;
  return undefined;
}

function authHeader(step: CallStep, keys: RunOptions['keys']): string | undefined {
  const auth = step.auth ?? 'main';
  if (auth === 'none') return undefined;
  if (typeof auth === 'object') return auth.header;
  const key = keys[auth];
  if (!key) throw new Unresolved(`no ${auth} key`);
  return `Bearer ${key}`;
}

export async function runSuite(options: RunOptions): Promise<RecordedScenario[]> {
  const run = randomBytes(4).toString('hex');
  const normalizer = new Normalizer({ baseUrl: options.baseUrl, run, vars: options.vars, webhookUrl: options.webhook?.url, keys: options.keys });
  const out: RecordedScenario[] = [];
  for (const scenario of options.scenarios) {
    const skipped = skipReason(scenario, options);
    const recorded: RecordedScenario = skipped ? { name: scenario.name, description: scenario.description, skipped, steps: [] } : await runScenario(scenario, options, run, normalizer);
    out.push(recorded);
    options.onScenario?.(recorded);
  }
  return out;
}

async function runScenario(scenario: Scenario, options: RunOptions, run: string, normalizer: Normalizer): Promise<RecordedScenario> {
  normalizer.startScenario();
  const ctx: RefContext = { run, vars: options.vars, webhookUrl: options.webhook?.url, answers: new Map() };
  const steps: RecordedStep[] = [];
  const webhookMark = options.webhook?.receiver.mark() ?? 0;
  for (const step of scenario.steps) {
    steps.push(isDeliveries(step) ? await deliveriesStep(step, options, ctx, normalizer, webhookMark) : await callStep(step, options, ctx, normalizer));
  }
  return { name: scenario.name, description: scenario.description, steps };
}

async function callStep(step: CallStep, options: RunOptions, ctx: RefContext, normalizer: Normalizer): Promise<RecordedStep> {
  const route = routeOfStep(step.method, step.path);
  let path: string;
  let headers: Record<string, string>;
  let body: string | undefined;
  try {
    path = resolveString(step.path, ctx);
    const query = step.query ? (resolve(step.query, ctx) as Record<string, string>) : undefined;
    if (query && Object.keys(query).length) path += `?${new URLSearchParams(query).toString()}`;
    headers = { accept: 'application/json', 'user-agent': 'svc-parity', ...(resolve(step.headers ?? {}, ctx) as Record<string, string>) };
    const authorization = authHeader(step, options.keys);
    if (authorization !== undefined) headers.authorization = authorization;
    if (step.body !== undefined) {
      body = JSON.stringify(resolve(step.body, ctx));
      headers['content-type'] = 'application/json';
    }
  } catch (err) {
    if (!(err instanceof Unresolved)) throw err;
    return { name: step.name, route, request: { method: step.method, path: step.path }, not_run: err.message };
  }
  const answer = await exchange(options, step.method, path, headers, body);
  ctx.answers.set(step.name, answer);
  const rules = step.rules?.length ? Object.fromEntries(step.rules.map((r) => [r.name, holds(r, step.name, ctx)])) : undefined;
  const sentTrace = Object.entries(headers).find(([k]) => k.toLowerCase() === 'x-trace-id')?.[1];
  return {
    name: step.name,
    route,
    request: { method: step.method, path: normalizer.requestPath(path.split('?')[0]) + (path.includes('?') ? `?${normalizer.string(decodeURIComponent(path.slice(path.indexOf('?') + 1)), '', false)}` : '') },
    status: answer.status,
    headers: normalizer.headers(answer.headers, sentTrace),
    body: answer.json === undefined ? { $text: answer.text.slice(0, 200) } : normalizer.body(answer.json, step.lists),
    ...(step.lists?.length && { lists: step.lists }),
    ...(rules && { rules }),
  };
}

async function exchange(options: RunOptions, method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
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

/** A rule against the raw answers (before normalization: times compare as times). */
function holds(rule: Rule, self: string, ctx: RefContext): boolean {
  const answer = ctx.answers.get(self)!;
  const at = (path: string) => valuesAt(dataOf(answer), path);
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
      const other = ctx.answers.get(rule.as);
      return other !== undefined && other.status === answer.status && other.text === answer.text;
    }
  }
}

/** `t=<unix>,v1=<hex>`'s format, the values aside. */
const signatureFormat = (value: string) => value.replace(/^t=\d+/, 't=<unix>').replace(/v1=[0-9a-f]{64}/g, 'v1=<hmac_sha256_hex>');

async function deliveriesStep(step: DeliveriesStep, options: RunOptions, ctx: RefContext, normalizer: Normalizer, since: number): Promise<RecordedStep> {
  const request = { method: 'RECEIVE', path: '<webhook_url>' };
  let secret: string;
  try {
    secret = resolveString(step.secret, ctx);
  } catch (err) {
    if (!(err instanceof Unresolved)) throw err;
    return { name: step.name, route: null, request, not_run: err.message };
  }
  const { receiver, waitMs, skip } = options.webhook!;
  if (skip !== undefined) return { name: step.name, route: null, request, skipped: skip };
  const got = await receiver.waitFor(step.events, since, waitMs);
  const deliveries = [];
  for (const event of step.events) {
    const r = got.get(event);
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
    // Validity of the HMAC alone: "now" is the header's own t (the spec gives no tolerance, and a
    // recording must not depend on how long the delivery took).
    const t = Number(/(?:^|,)\s*t=(\d+)/.exec(r.headers['svc-signature'] ?? '')?.[1] ?? 0);
    const verdict = verifySignature({ secret, header: r.headers['svc-signature'], body: r.body, now: t });
    deliveries.push({ event, headers, signature_valid: verdict.ok, body: normalizer.body(json) });
  }
  return { name: step.name, route: null, request, deliveries };
}
