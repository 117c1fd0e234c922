import { ENUM_FIELDS, TOO_DEEP } from './normalize.js';
import type { IgnoreEntry, RecordedScenario, RecordedStep } from './snapshot.js';
import { isRecord } from '../../contract/json-path.js';

// The comparator: a recording (expected) against a fresh run (actual), step by step. What
// must agree: the status, the error code, the envelope and every field's presence and JSON
// type, the values of enumerations and flags (ENUM_FIELDS), the format of every placeholder
// (id prefix and which object it names, time format, secret format), URLs, the recorded
// headers, the rules (ordering, replay), and each webhook delivery. Free text (titles,
// messages) and numbers are compared by type: their values are the host's business.
// A list (a step's `lists`) is compared by its first row's shape alone.

export interface Difference {
  scenario: string;
  step: string;
  /** The contract route of the step ("POST /v1/api/payouts"), or the request when no route matches. */
  route: string;
  /** status | header:<name> | rule:<name> | step | $.json.path | delivery:<event>:$.path */
  where: string;
  expected: string;
  actual: string;
  /** Set when the snapshot's ignore list silences it: the reason given. */
  ignored?: string;
}

export interface ScenarioTally {
  scenario: string;
  steps: number;
  compared: number;
  differences: number;
  ignored: number;
  /** Why the scenario was not compared (skipped in the recording or in this run). */
  skipped?: string;
}

/** A step one side did not play (RecordedStep.skipped): said, never compared. */
export interface SkippedStep {
  scenario: string;
  step: string;
  reason: string;
}

export interface Comparison {
  differences: Difference[];
  tally: ScenarioTally[];
  skipped: SkippedStep[];
  /** Steps only one side has (the suite changed since the recording): reported, not failed. */
  notes: string[];
}

type Json = unknown;

const typeOf = (v: Json): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

const ABSENT = 'absent';

/** A value as a difference line shows it: short, JSON. */
function shown(v: Json): string {
  if (v === undefined) return ABSENT;
  if (Array.isArray(v)) return `array (${v.length})`;
  if (isRecord(v)) {
    const keys = Object.keys(v);
    return `object {${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}}`;
  }
  if (v === null) return 'null';
  const text = JSON.stringify(v);
  return `${typeOf(v)} ${text.length > 80 ? `${text.slice(0, 77)}…"` : text}`;
}

const isPlaceholder = (s: string) => /^<[^<>]+>$/.test(s) || s.startsWith('<checkout_url>/') || s.startsWith('<base_url>/');

interface Walk {
  push(where: string, expected: Json, actual: Json): void;
  lists: string[];
}

function compareValue(w: Walk, exp: Json, act: Json, path: string, key: string, shapeOnly: boolean, enumItems: boolean): void {
  // What was cut off was not compared: a difference on either side, even the same depth on both.
  if (exp === TOO_DEEP || act === TOO_DEEP) return w.push(path, exp, act);
  if (exp === undefined || act === undefined || typeOf(exp) !== typeOf(act)) {
    if (exp !== undefined || act !== undefined) w.push(path, exp, act);
    return;
  }
  // Both sides have the same JSON type from here.
  if (Array.isArray(exp) && Array.isArray(act)) {
    if (w.lists.includes(path)) {
      // A list: its rows come from the host's history; the first row's shape is what must agree.
      if (exp.length > 0 && act.length > 0) compareValue(w, exp[0], act[0], `${path}[0]`, key, true, ENUM_FIELDS.has(key));
      return;
    }
    if (exp.length !== act.length && !shapeOnly) w.push(`${path}.length`, exp.length, act.length);
    for (let i = 0; i < Math.min(exp.length, act.length); i++) compareValue(w, exp[i], act[i], `${path}[${i}]`, key, shapeOnly, ENUM_FIELDS.has(key));
  } else if (isRecord(exp) && isRecord(act)) {
    for (const k of new Set([...Object.keys(exp), ...Object.keys(act)])) compareValue(w, exp[k], act[k], `${path}.${k}`, k, shapeOnly, false);
  } else if (typeof exp === 'string' && typeof act === 'string') {
    if (shapeOnly || exp === act) return;
    if (enumItems || ENUM_FIELDS.has(key) || key.endsWith('_url') || isPlaceholder(exp) || isPlaceholder(act)) w.push(path, exp, act);
  } else if (typeof exp === 'boolean' && !shapeOnly && exp !== act) w.push(path, exp, act);
  // integer, number, null: the type agreed
}

const routeOf = (s: RecordedStep) => s.route ?? `${s.request.method} ${s.request.path}`;

function errorCode(body: Json): string | undefined {
  const code = isRecord(body) && isRecord(body.error) ? body.error.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The differences of one step (recorded `exp`, this run's `act`). */
export function compareStep(exp: RecordedStep, act: RecordedStep, push: (where: string, expected: string, actual: string) => void): void {
  if (exp.not_run !== undefined || act.not_run !== undefined) {
    if (exp.not_run === undefined || act.not_run === undefined) {
      const say = (s: RecordedStep) => (s.not_run !== undefined ? `not run (${s.not_run})` : `HTTP ${s.status}`);
      push('step', say(exp), say(act));
    }
    return;
  }
  if (exp.status !== act.status) {
    push('status', String(exp.status), String(act.status));
    const [ec, ac] = [errorCode(exp.body), errorCode(act.body)];
    if (ec !== ac) push('$.error.code', ec === undefined ? ABSENT : JSON.stringify(ec), ac === undefined ? ABSENT : JSON.stringify(ac));
    // The rest of a different answer is a consequence of the status: one line says it.
    return;
  }
  const walk = (prefix: string, lists: string[]): Walk => ({ lists, push: (where, e, a) => push(`${prefix}${where}`, shown(e), shown(a)) });
  compareValue(walk('', exp.lists ?? []), exp.body, act.body, '$', '', false, false);
  const eh = exp.headers ?? {};
  const ah = act.headers ?? {};
  for (const name of new Set([...Object.keys(eh), ...Object.keys(ah)])) {
    if (eh[name] !== ah[name]) push(`header:${name}`, eh[name] ?? ABSENT, ah[name] ?? ABSENT);
  }
  const er = exp.rules ?? {};
  const ar = act.rules ?? {};
  for (const name of new Set([...Object.keys(er), ...Object.keys(ar)])) {
    if (er[name] !== ar[name]) push(`rule:${name}`, er[name] === undefined ? ABSENT : String(er[name]), ar[name] === undefined ? ABSENT : String(ar[name]));
  }
  if (exp.deliveries || act.deliveries) {
    const byEvent = (s: RecordedStep) => new Map((s.deliveries ?? []).map((d) => [d.event, d]));
    const [ed, ad] = [byEvent(exp), byEvent(act)];
    for (const event of new Set([...ed.keys(), ...ad.keys()])) {
      const [e, a] = [ed.get(event), ad.get(event)];
      const prefix = `delivery:${event}:`;
      if (!e || !a) {
        push(`${prefix}received`, e ? 'received' : 'not received', a ? 'received' : 'not received');
        continue;
      }
      if (e.signature_valid !== a.signature_valid) push(`${prefix}signature_valid`, String(e.signature_valid), String(a.signature_valid));
      for (const name of new Set([...Object.keys(e.headers), ...Object.keys(a.headers)])) {
        if (e.headers[name] !== a.headers[name]) push(`${prefix}header:${name}`, e.headers[name] ?? ABSENT, a.headers[name] ?? ABSENT);
      }
      compareValue(walk(prefix, []), e.body, a.body, '$', '', false, false);
    }
  }
}

/** `scenario/step:where` against an ignore entry's path (* for any scenario or step; a where covers what is under it). */
export function ignoreMatches(pattern: string, d: Pick<Difference, 'scenario' | 'step' | 'where'>): boolean {
  const colon = pattern.indexOf(':');
  const [who, where] = colon < 0 ? [pattern, undefined] : [pattern.slice(0, colon), pattern.slice(colon + 1)];
  const [scenario, step = '*'] = who.split('/');
  if (scenario !== '*' && scenario !== d.scenario) return false;
  if (step !== '*' && step !== d.step) return false;
  if (where === undefined || where === '') return true;
  return d.where === where || d.where.startsWith(`${where}.`) || d.where.startsWith(`${where}[`);
}

export function compareRuns(expected: RecordedScenario[], actual: RecordedScenario[], ignore: IgnoreEntry[]): Comparison {
  const differences: Difference[] = [];
  const tally: ScenarioTally[] = [];
  const notes: string[] = [];
  const skipped: SkippedStep[] = [];
  const actualByName = new Map(actual.map((s) => [s.name, s]));
  for (const exp of expected) {
    const act = actualByName.get(exp.name);
    const row: ScenarioTally = { scenario: exp.name, steps: exp.steps.length, compared: 0, differences: 0, ignored: 0 };
    tally.push(row);
    if (!act) {
      row.skipped = 'not in this suite';
      notes.push(`${exp.name}: in the snapshot, not in this version's suite`);
      continue;
    }
    if (exp.skipped !== undefined || act.skipped !== undefined) {
      row.skipped = exp.skipped !== undefined ? `skipped when recorded: ${exp.skipped}` : `skipped now: ${act.skipped}`;
      row.steps = Math.max(exp.steps.length, act.steps.length);
      continue;
    }
    const actSteps = new Map(act.steps.map((s) => [s.name, s]));
    for (const step of exp.steps) {
      const now = actSteps.get(step.name);
      if (!now) {
        notes.push(`${exp.name}/${step.name}: in the snapshot, not in this version's suite`);
        continue;
      }
      if (step.skipped !== undefined || now.skipped !== undefined) {
        skipped.push({ scenario: exp.name, step: step.name, reason: now.skipped !== undefined ? `skipped now: ${now.skipped}` : `skipped when recorded: ${step.skipped}` });
        continue;
      }
      row.compared++;
      compareStep(step, now, (where, e, a) => {
        const d: Difference = { scenario: exp.name, step: step.name, route: routeOf(now), where, expected: e, actual: a };
        const match = ignore.find((i) => ignoreMatches(i.path, d));
        if (match) {
          d.ignored = match.reason;
          row.ignored++;
        } else row.differences++;
        differences.push(d);
      });
    }
    for (const step of act.steps) if (!exp.steps.some((s) => s.name === step.name)) notes.push(`${exp.name}/${step.name}: new in this suite, not in the snapshot (record again)`);
  }
  for (const act of actual) {
    if (!expected.some((s) => s.name === act.name)) {
      notes.push(`${act.name}: new in this suite, not in the snapshot (record again)`);
      tally.push({ scenario: act.name, steps: act.steps.length, compared: 0, differences: 0, ignored: 0, skipped: 'not in the snapshot' });
    }
  }
  return { differences, tally, skipped, notes };
}
