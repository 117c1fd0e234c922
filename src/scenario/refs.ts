import { isRecord } from '../../contract/json-path.js';

// References in scenario values, in the Stripe CLI fixtures' syntax:
//   ${link:data.id}        a path into the body of the step named `link` (its answer, its event, its OTP)
//   ${link@x-trace-id}     a header of that step's answer
//   ${.env:NAME}           a variable: --env NAME=VALUE, else the file's `env` default
//   ${.run}                this run's nonce (idempotency keys unique per run: a host keeps keys 24 h)
//   ${.webhook_url}        the URL of the runner's webhook receiver (a scenario that registers its own endpoint)
// A string that is one reference alone takes the referenced value's JSON type (a number stays a number).

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type EnvValue = string | number | boolean;

/** What a step left for later steps to refer to. */
export interface Outcome {
  /** Why it did not run (later steps that refer to it are skipped too). */
  skipped?: string;
  headers: Record<string, string>;
  /** The parsed body (undefined when it is not JSON). */
  body: unknown;
  status?: number;
}

export interface RefContext {
  run: string;
  env: Record<string, EnvValue>;
  webhookUrl?: string;
  outcomes: Map<string, Outcome>;
}

/** A reference that cannot be resolved now: the answer it points into has no such value. */
export class Unresolved extends Error {}
/** A reference to a step that was skipped: the step that holds it is skipped too. */
export class RefersToSkipped extends Error {}

const REF = /\$\{([^}]*)\}/g;
const STEP_REF = /^([A-Za-z0-9_-]+)(?::(.*)|@([\w-]+))$/s;

/** `payments[*].created_at`, `data.payments[-1].id`: the values at a path (several for [*]). */
export function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  if (path === '' || path === '.') return current;
  for (const part of path.split('.').flatMap((p) => p.split(/(?=\[)/))) {
    const next: unknown[] = [];
    for (const value of current) {
      const index = /^\[(\*|-?\d+)\]$/.exec(part);
      if (index) {
        if (!Array.isArray(value)) continue;
        if (index[1] === '*') next.push(...value);
        else {
          const i = Number(index[1]);
          const item = value[i < 0 ? value.length + i : i];
          if (item !== undefined) next.push(item);
        }
      } else if (isRecord(value) && part in value) {
        next.push(value[part]);
      }
    }
    current = next;
  }
  return current;
}

/** What a reference names, for the checks made before anything runs. */
export type Ref = { kind: 'step'; step: string } | { kind: 'env'; name: string } | { kind: 'builtin' } | { kind: 'bad'; why: string };

export function parseRef(ref: string): Ref {
  if (ref === '.run' || ref === '.webhook_url') return { kind: 'builtin' };
  const env = /^\.env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(ref);
  if (env) return { kind: 'env', name: env[1] };
  if (ref.startsWith('.')) return { kind: 'bad', why: `\${${ref}} is not a reference: use \${.env:NAME}, \${.run} or \${.webhook_url}` };
  const step = STEP_REF.exec(ref);
  return step ? { kind: 'step', step: step[1] } : { kind: 'bad', why: `\${${ref}} is not a reference: expected \${<step>:<path>} or \${<step>@<header>}` };
}

/** Every reference in the strings of `value` (deeply), with the path of the string that holds it. */
export function refsIn(value: unknown, path: PropertyKey[] = []): { ref: Ref; text: string; path: PropertyKey[] }[] {
  if (typeof value === 'string') return [...value.matchAll(REF)].map((m) => ({ ref: parseRef(m[1]), text: m[0], path }));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => refsIn(v, [...path, Array.isArray(value) ? Number(k) : k]));
}

function resolveOne(ref: string, ctx: RefContext): unknown {
  if (ref === '.run') return ctx.run;
  if (ref === '.webhook_url') {
    if (!ctx.webhookUrl) throw new RefersToSkipped('no webhook receiver in this run');
    return ctx.webhookUrl;
  }
  const parsed = parseRef(ref);
  if (parsed.kind === 'env') {
    const value = ctx.env[parsed.name];
    if (value === undefined) throw new Unresolved(`\${${ref}} has no value`);
    return value;
  }
  const m = STEP_REF.exec(ref);
  if (!m) throw new Unresolved(`\${${ref}} is not a reference`);
  const outcome = ctx.outcomes.get(m[1]);
  if (!outcome) throw new Unresolved(`\${${ref}}: step ${m[1]} has no answer`);
  if (outcome.skipped !== undefined) throw new RefersToSkipped(`refers to step ${m[1]}, which was skipped`);
  if (m[3] !== undefined) {
    const value = outcome.headers[m[3].toLowerCase()];
    if (value === undefined) throw new Unresolved(`\${${ref}}: step ${m[1]} has no ${m[3]} header`);
    return value;
  }
  const [value] = valuesAt(outcome.body, m[2]);
  const from = `step ${m[1]}${outcome.status === undefined ? '' : ` (HTTP ${outcome.status})`}`;
  if (value === undefined) throw new Unresolved(`\${${ref}}: the body of ${from} has no ${m[2]}`);
  // A reference stands for one value (an id, an amount): an object or array there is another
  // shape than the file expects (and turning one of thousands of levels into text would overflow the stack).
  if (value !== null && typeof value === 'object') throw new Unresolved(`\${${ref}}: the body of ${from} has ${Array.isArray(value) ? 'an array' : 'an object'} at ${m[2]}, not a value`);
  return value;
}

function resolveAny(value: unknown, ctx: RefContext): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([^}]*)\}$/.exec(value);
    if (whole) return resolveOne(whole[1], ctx);
    return value.replace(REF, (_, ref: string) => String(resolveOne(ref, ctx)));
  }
  if (Array.isArray(value)) return value.map((v) => resolveAny(v, ctx));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAny(v, ctx)]));
  return value;
}

/**
 * Every reference in `value` (deeply) replaced by what it names; Unresolved or RefersToSkipped
 * when one cannot be. The shape stays; a string that was one reference alone may now hold the
 * value's own type (a number), which the file's schema let it stand for.
 */
export const resolve = <T>(value: T, ctx: RefContext): T => resolveAny(value, ctx) as T;

export const resolveString = (value: string, ctx: RefContext): string => String(resolveAny(value, ctx));
