import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { ScenarioFile, type Scenario } from './format.js';
import { refsIn, valuesAt, type EnvValue } from './refs.js';
import { isRecord } from '../../contract/json-path.js';

// A scenario file read and checked before anything is sent: YAML or JSON (JSON is YAML, so one
// reader gives both their positions), the zod schema (format.ts), then what a schema cannot
// see — references to steps that do not exist or come later, variables with no value, --set
// for a step or a path that is not there. Every problem is `file:line:column: message`.

/** A file that cannot run: each line is `file:line:col: message`. The CLI exits 2 with it. */
export class ScenarioError extends Error {}

/** `--set <step>.<path>=<value>`: one field of one step's body. */
export interface SetValue {
  step: string;
  path: string;
  value: unknown;
  /** As given, for messages. */
  text: string;
}

export interface LoadOptions {
  /** Values given for ${.env:NAME} (strings from --env take the type of the file's default). */
  env?: Record<string, EnvValue>;
  set?: SetValue[];
  /** Another format built on this one (parity's); `missingEnv: 'allow'` leaves variables with no value to the caller. */
  format?: z.ZodType<Scenario>;
  missingEnv?: 'error' | 'allow';
  /** Several files run together: a --set may name a step of another one (the caller checks that one has it). */
  setElsewhere?: boolean;
}

export interface Loaded<S extends Scenario = Scenario> {
  file: string;
  scenario: S;
  /** The variables: the file's defaults, overridden by the ones given. */
  env: Record<string, EnvValue>;
}

/** `--set link.amount=500`: the value as JSON when it is JSON (500, true, {"a":1}), else as text. */
export function parseSet(text: string): SetValue {
  const m = /^([A-Za-z0-9_-]+)\.([^=]+)=(.*)$/s.exec(text);
  if (!m) throw new ScenarioError(`--set ${text}: expected <step>.<path>=<value>, e.g. link.amount=500`);
  let value: unknown = m[3];
  try {
    value = JSON.parse(m[3]);
  } catch {
    // text
  }
  return { step: m[1], path: m[2], value, text };
}

type Where = (path: PropertyKey[], key?: string, text?: string) => string;

/** `file:line:col` of the node at `path` (of its key `key`, of `text` in its one-line string), or of the nearest node above it that exists. */
function locator(file: string, doc: Document | undefined, lines: LineCounter): Where {
  return (path, key, text) => {
    if (!doc) return file;
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true);
      if (!isNode(node) || !node.range) continue;
      let offset = node.range[0];
      const pair = key !== undefined && n === path.length && isMap(node) ? node.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
      if (pair && isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
      const scalar = text !== undefined && n === path.length && isScalar(node) && typeof node.value === 'string' && !node.value.includes('\n') ? node : undefined;
      const at = scalar ? String(scalar.value).indexOf(text!) : -1;
      if (at >= 0) offset += at + (scalar?.type === 'PLAIN' ? 0 : 1);
      const { line, col } = lines.linePos(offset);
      return `${file}:${line}:${col}`;
    }
    return file;
  };
}

/** Reads and checks a scenario from its text (or, from the testing API, a value); throws ScenarioError. */
export function loadScenario<S extends Scenario = Scenario>(file: string, source: string | object, options: LoadOptions = {}): Loaded<S> {
  const lines = new LineCounter();
  const doc = typeof source === 'string' ? parseDocument(source, { lineCounter: lines, uniqueKeys: true }) : undefined;
  const problems: string[] = [];
  for (const err of doc?.errors ?? []) {
    const at = err.linePos?.[0];
    problems.push(`${file}${at ? `:${at.line}:${at.col}` : ''}: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  if (problems.length) throw new ScenarioError(problems.join('\n'));
  const where = locator(file, doc, lines);
  const value = doc ? doc.toJS({ maxAliasCount: 1000 }) : source;
  const parsed = (options.format ?? ScenarioFile).safeParse(value);
  if (!parsed.success) {
    for (const found of parsed.error.issues.slice(0, 10)) {
      // Of a union's failures, the one that says more than "not this type" (an event type not in the list).
      const inner = found.code === 'invalid_union' ? found.errors.flat().find((i) => i.code !== 'invalid_type') : undefined;
      const issue = inner ? { ...inner, path: [...found.path, ...inner.path] } : found;
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problems.push(`${where(path, key)}: unknown key ${key}${path.length ? ` in ${path.join('.')}` : ''}`);
      else problems.push(`${where(path)}: ${path.length ? `${path.join('.')}: ` : ''}${issue.message}`);
    }
    throw new ScenarioError(problems.join('\n'));
  }
  const scenario = parsed.data as S;
  const env = withGiven(scenario.env ?? {}, options.env ?? {});
  const names = scenario.steps.map((s) => s.name);
  scenario.steps.forEach((step, i) => {
    const earlier = names.slice(0, i);
    if (step.otp !== undefined && !earlier.includes(step.otp)) problems.push(`${where(['steps', i, 'otp'])}: otp names step ${step.otp}, ${names.includes(step.otp) ? 'which comes later' : 'and there is no such step'}`);
    const { name: _name, ...rest } = step;
    for (const { ref, text, path } of refsIn(rest, ['steps', i])) {
      const at = where(path, undefined, text);
      if (ref.kind === 'bad') problems.push(`${at}: ${ref.why}`);
      else if (ref.kind === 'step' && !(ref.step === 'this' && path[2] === 'rules') && !earlier.includes(ref.step)) problems.push(`${at}: ${text} refers to step ${ref.step}, ${names.includes(ref.step) ? 'which comes later (a step can refer only to the steps before it)' : 'and there is no such step'}`);
      else if (ref.kind === 'env' && env[ref.name] === undefined && options.missingEnv !== 'allow') problems.push(`${at}: ${text} has no value: give --env ${ref.name}=… or a default under env`);
    }
  });
  for (const set of options.set ?? []) {
    const i = names.indexOf(set.step);
    if (i < 0 && !options.setElsewhere) problems.push(`${where(['steps'])}: --set ${set.text}: there is no step ${set.step} (steps: ${names.join(', ')})`);
    else if (i >= 0 && !setIn(scenario.steps[i], set)) problems.push(`${where(['steps', i, 'body'])}: --set ${set.text}: step ${set.step}'s body has no ${set.path}`);
  }
  if (problems.length) throw new ScenarioError(problems.join('\n'));
  return { file, scenario, env };
}

/** Sets the value at the path when the step's body has it; false when it has not. */
function setIn(step: { body?: unknown }, set: SetValue): boolean {
  const parts = set.path.split('.').flatMap((p) => p.split(/(?=\[)/));
  const last = parts.pop()!;
  const [parent] = valuesAt(step.body, parts.join('.'));
  const key = /^\[(\d+)\]$/.exec(last)?.[1] ?? last;
  if (!isRecord(parent) || !(key in parent)) return false;
  parent[key] = set.value;
  return true;
}

/** The file's defaults, then the values given; a value given as text takes the type of its default. */
function withGiven(defaults: Record<string, EnvValue>, given: Record<string, EnvValue>): Record<string, EnvValue> {
  const env = { ...defaults };
  for (const [name, value] of Object.entries(given)) {
    const typed = typeof defaults[name];
    if (typeof value !== 'string' || typed === 'string' || typed === 'undefined') env[name] = value;
    else if (typed === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) env[name] = Number(value);
    else if (typed === 'boolean' && (value === 'true' || value === 'false')) env[name] = value === 'true';
    else throw new ScenarioError(`--env ${name}=${value}: expected a ${typed}, like its default (${JSON.stringify(defaults[name])})`);
  }
  return env;
}
