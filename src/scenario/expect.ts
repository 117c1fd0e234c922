import type { Matcher } from './format.js';
import { isRecord } from '../../contract/json-path.js';

// Expectations: a subset of a value. An object matches when each field it names matches, an
// array when its listed items match the actual's first items in order, a matcher object
// ({$exists}, {$matches}, {$gte}, {$lte}, {$length}, {$contains}) when each of its tests holds, anything
// else when it is equal (same JSON type). The first difference is what a failure shows.

export interface Difference {
  /** A JSON path into what was checked: $.data.status, header:x-trace-id, status, code. */
  where: string;
  expected: string;
  received: string;
}

const SECRET_NAME = /pin|otp|secret|passw|token|authorization/i;

/** A value as a failure line shows it: JSON, short, no key or secret. */
export function shown(value: unknown, name = ''): string {
  if (value === undefined) return 'absent';
  if (SECRET_NAME.test(name) && value !== null && typeof value !== 'object') return '"[redacted]"';
  const text = JSON.stringify(value)?.replace(/svc_(test|live)_[A-Za-z0-9]+/g, 'svc_$1_…') ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

const isMatcher = (v: unknown): v is Matcher => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((k) => k.startsWith('$'));

/** Why `actual` fails the matcher, or undefined when every test holds. */
function failedTest(m: Matcher, actual: unknown): string | undefined {
  if (m.$exists !== undefined && (actual !== undefined) !== m.$exists) return m.$exists ? 'present' : 'absent';
  if (m.$matches !== undefined && !(typeof actual === 'string' && new RegExp(m.$matches).test(actual))) return `a string matching /${m.$matches}/`;
  if (m.$gte !== undefined && !(typeof actual === 'number' && actual >= m.$gte)) return `a number >= ${m.$gte}`;
  if (m.$lte !== undefined && !(typeof actual === 'number' && actual <= m.$lte)) return `a number <= ${m.$lte}`;
  const length = Array.isArray(actual) || typeof actual === 'string' ? actual.length : undefined;
  if (m.$length !== undefined && length !== m.$length) return `length ${m.$length}`;
  if (m.$contains !== undefined && !(Array.isArray(actual) && actual.some((item) => firstDifference(m.$contains, item) === undefined))) return `an array with an item matching ${shown(m.$contains)}`;
  return undefined;
}

/** The first place `actual` differs from the `expected` subset (depth first, in the file's order), or undefined. */
export function firstDifference(expected: unknown, actual: unknown, where = '$', name = ''): Difference | undefined {
  const differ = (e: string): Difference => ({ where, expected: e, received: shown(actual, name) });
  if (isMatcher(expected)) {
    const failed = failedTest(expected, actual);
    if (failed === undefined) return undefined;
    if (failed.startsWith('length') && (Array.isArray(actual) || typeof actual === 'string')) return { where: `${where}.length`, expected: String(expected.$length), received: String(actual.length) };
    return differ(failed);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return differ(`an array of ${expected.length} or more`);
    if (actual.length < expected.length) return { where: `${where}.length`, expected: `${expected.length} or more`, received: String(actual.length) };
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], actual[i], `${where}[${i}]`, name);
      if (d) return d;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (!isRecord(actual) || Array.isArray(actual)) return differ('an object');
    for (const [k, v] of Object.entries(expected)) {
      const d = firstDifference(v, actual[k], `${where}.${k}`, k);
      if (d) return d;
    }
    return undefined;
  }
  return expected === actual ? undefined : { where, expected: shown(expected, name), received: shown(actual, name) };
}
