import { parseDuration } from '../../contract/formats.js';
import { messageOf } from '../../contract/errors.js';

// Flag value parsers shared by every command's flag table (flags.ts): each throws an Error
// whose message states the rule; commander's registration (options.ts) names the flag, and a
// variable's check (start, exec) names the variable.

export function intFlag(min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new Error(`expected a whole number, got "${value}".`);
    const n = Number(value);
    if (n < min || n > max) throw new Error(`expected a number from ${min} to ${max}, got ${n}.`);
    return n;
  };
}

export function choiceFlag<T extends string>(choices: readonly T[]) {
  return (value: string): T => {
    const found = choices.find((c) => c === value);
    if (found === undefined) throw new Error(`expected one of ${choices.join(', ')}, got "${value}".`);
    return found;
  };
}

/** A value that must not be empty (a path): `--data-dir ''` or `SVC_DATA_DIR=` is a mistake, not the current folder. */
export function nonEmpty(value: string): string {
  if (value === '') throw new Error('is empty.');
  return value;
}

/** A repeatable flag's values, in order. */
export const repeatable = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** `30s`, `2m`, `1m30s`, or a whole number of ms; from 1 ms to 1 h (`status --timeout`, `webhooks check --timeout`). */
export function durationOrMs(value: string): number {
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value);
  else {
    try {
      ms = parseDuration(value);
    } catch (err) {
      throw new Error(`${messageOf(err)}; or a whole number of milliseconds.`);
    }
  }
  if (ms < 1 || ms > 3_600_000) throw new Error(`expected a duration from 1ms to 1h, got "${value}".`);
  return ms;
}

/** Coverage ignore patterns, repeatable and comma-separated (SVC_COVERAGE_IGNORE=payroll,sub-merchants). */
export function patternList(value: string, previous: string[] | undefined): string[] {
  const patterns = value.split(',').map((p) => p.trim()).filter(Boolean);
  if (patterns.length === 0) throw new Error('is empty: give a pattern such as payroll.');
  return [...(previous ?? []), ...patterns];
}
