import { MAX_KEY_LENGTH } from '../../contract/idempotency.js';
import { parseControlToken } from '../../contract/network.js';
import { intFlag } from './parse.js';

// Each command's flags as one table: commander's registration (options.ts), the type of the
// flags the command's run() gets (FlagsOf<typeof TABLE>), the fast path's parser (fast-path.ts),
// the SVC_* variables of `svc emulator start` and `exec`, and the docs' table of them
// (test/cli/emulator-env.test.ts) all read it, so no flag is named twice. A table's key is the
// flag's property name: `dataDir` is `--data-dir`. No commander here: the fast path loads this.

export interface FlagSpec {
  /** The value's name in --help, e.g. '<n>'; absent for a switch. */
  value?: string;
  /** A one-letter alias, e.g. '-y'. */
  short?: string;
  help: string;
  /** Checks and converts a value; throws an Error whose message states the rule. `previous`: a repeated flag's value so far. */
  parse?(raw: string, previous: unknown): unknown;
  default?: unknown;
  /** The default as --help shows it, when the value is not what a user types (a parsed rate limit). */
  shows?: string;
  required?: true;
  /** `--no-<name>`: true unless the flag is given. */
  negate?: true;
  /** The variable that gives the value when the flag is absent (`svc emulator start` and `exec`). */
  env?: `SVC_${string}`;
}

export type FlagTable = Readonly<Record<string, FlagSpec>>;

type ValueOf<F> = F extends { parse: (...a: never[]) => infer T } ? T : F extends { value: string } ? string : boolean;
type Always<F> = F extends { default: unknown } | { required: true } | { negate: true } ? true : false;

/** The flags a command's run() gets from its table: a flag with a default (or required) is always there. */
export type FlagsOf<T extends FlagTable> = { -readonly [K in keyof T]: Always<T[K]> extends true ? ValueOf<T[K]> : ValueOf<T[K]> | undefined };

/** expiresAt → --expires-at (--no-input for a negated switch). */
export const flagName = (prop: string, spec?: FlagSpec): string => `--${spec?.negate ? 'no-' : ''}${prop.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** A switch set by a variable: SVC_FSYNC=true. */
export function switchValue(raw: string): boolean {
  if (/^(1|true)$/i.test(raw)) return true;
  if (/^(0|false)$/i.test(raw)) return false;
  throw new Error(`expected true, false, 1 or 0, got "${raw}".`);
}

/**
 * --idempotency-key goes out in a header (and, for a charge, in the body too): what a header
 * cannot carry is a usage error here rather than a network error from the transport.
 */
function idempotencyKey(value: string): string {
  if (value === '') throw new Error('is empty.');
  const bad = /[\x00-\x08\x0a-\x1f\x7f]/.exec(value);
  if (bad) throw new Error(`holds a control character (U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) that an HTTP header cannot carry.`);
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_KEY_LENGTH) throw new Error(`is ${bytes} bytes in UTF-8; a header key holds at most ${MAX_KEY_LENGTH}.`);
  return value;
}

/** The connection flags of every command that calls the service (or the emulator's control API). */
export const API_FLAGS = {
  apiKey: { value: '<key>', help: 'API key (default: $SVC_API_KEY, the profile, or the emulator in ./.svc)' },
  baseUrl: { value: '<url>', help: 'service address (default: $SVC_BASE_URL, the profile, or the emulator in ./.svc)' },
  profile: { value: '<name>', help: 'config profile to use (default: $SVC_PROFILE or the current profile)' },
  json: { help: "print the API's data as one JSON document, nothing else on stdout" },
  timeout: { value: '<ms>', help: 'per-attempt deadline: connect, headers and the whole answer', parse: intFlag(1, 600_000), default: 30_000 },
  traceId: { value: '<id>', help: 'X-Trace-ID to send (default: generated)' },
  verbose: { help: 'also print the trace id of each call on stderr (errors always do)' },
  controlToken: { value: '<token>', help: 'control token of an emulator on another host (default: $SVC_CONTROL_TOKEN or the emulator in ./.svc)', parse: parseControlToken },
  input: { negate: true, help: 'never prompt; a missing value is a usage error' },
} as const satisfies FlagTable;

/** API flags plus --idempotency-key, for routes that write. */
export const WRITE_FLAGS = {
  ...API_FLAGS,
  idempotencyKey: { value: '<key>', help: 'idempotency key, reused on every retry (default: a new UUID)', parse: idempotencyKey },
} as const satisfies FlagTable;

/** Write flags plus --yes, for commands that move money (asked with a live key). */
export const MONEY_FLAGS = { ...WRITE_FLAGS, yes: { short: '-y', help: 'do not ask for confirmation with a live key' } } as const satisfies FlagTable;

export type CommonFlags = FlagsOf<typeof API_FLAGS>;
export type WriteFlags = FlagsOf<typeof WRITE_FLAGS>;
export type MoneyFlags = FlagsOf<typeof MONEY_FLAGS>;
