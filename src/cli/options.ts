import { InvalidArgumentError, Option, type Command } from 'commander';
import { MAX_KEY_LENGTH } from '../../contract/idempotency.js';
import { ioOf, type CliIO } from './io.js';
import { intFlag, wrapParser } from './parse.js';
import { parseControlToken } from '../../contract/network.js';

// The flags shared by commands, added by one helper each so every command spells them the
// same way, and the lazy action loader that keeps command code out of `svc --help`.

export interface CommonFlags {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  json?: boolean;
  /** false under --no-input. */
  input: boolean;
  timeout: number;
  traceId?: string;
  /** Print the trace id of each call (errors print theirs always). */
  verbose?: boolean;
  /** The control token of an emulator on another host. */
  controlToken?: string;
}

export interface WriteFlags extends CommonFlags {
  idempotencyKey?: string;
}

export interface MoneyFlags extends WriteFlags {
  yes?: boolean;
}

/**
 * --api-key, --base-url, --profile, --json, --timeout, --trace-id, --verbose, --no-input.
 * `timeout` replaces the per-attempt --timeout <ms> (svc emulator status takes a duration).
 */
export function apiOptions(cmd: Command, timeout?: Option): Command {
  return cmd
    .option('--api-key <key>', 'API key (default: $SVC_API_KEY, the profile, or the emulator in ./.svc)')
    .option('--base-url <url>', 'service address (default: $SVC_BASE_URL, the profile, or the emulator in ./.svc)')
    .option('--profile <name>', 'config profile to use (default: $SVC_PROFILE or the current profile)')
    .option('--json', "print the API's data as one JSON document, nothing else on stdout")
    .addOption(timeout ?? new Option('--timeout <ms>', 'per-attempt request timeout').argParser(intFlag(1, 600_000)).default(30_000))
    .option('--trace-id <id>', 'X-Trace-ID to send (default: generated)')
    .option('--verbose', 'also print the trace id of each call on stderr (errors always do)')
    .option('--control-token <token>', 'control token of an emulator on another host (default: $SVC_CONTROL_TOKEN or the emulator in ./.svc)', wrapParser(parseControlToken))
    .option('--no-input', 'never prompt; a missing value is a usage error');
}

/** API options plus --idempotency-key, for routes that write. */
export function writeOptions(cmd: Command): Command {
  return apiOptions(cmd).option('--idempotency-key <key>', 'idempotency key, reused on every retry (default: a new UUID)', idempotencyKeyFlag);
}

/** Write options plus --yes, for commands that move money (asked with a live key). */
export function moneyOptions(cmd: Command): Command {
  return writeOptions(cmd).option('-y, --yes', 'do not ask for confirmation with a live key');
}

/**
 * --idempotency-key goes out in a header (and, for a charge, in the body too): what a header
 * cannot carry is a usage error here rather than a network error from the transport.
 */
function idempotencyKeyFlag(value: string): string {
  if (value === '') throw new InvalidArgumentError('is empty.');
  const bad = /[\x00-\x08\x0a-\x1f\x7f]/.exec(value);
  if (bad) throw new InvalidArgumentError(`holds a control character (U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) that an HTTP header cannot carry.`);
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_KEY_LENGTH) throw new InvalidArgumentError(`is ${bytes} bytes in UTF-8; a header key holds at most ${MAX_KEY_LENGTH}.`);
  return value;
}

export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`);
}

type Run = (args: string[], flags: any, io: CliIO, cmd: Command) => Promise<void>;

/**
 * Commander action that imports the command's module only when it runs, then calls its
 * `run` (or the export named `fn`) with the positional arguments, the flags, the invocation's
 * IO and the command.
 */
export function lazy<M>(load: () => Promise<M>, fn: keyof M & string = 'run' as keyof M & string) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const flags = cmd.opts();
    const positional = args.slice(0, -2).flatMap((a) => (Array.isArray(a) ? a : [a])) as string[];
    const mod = await load();
    await (mod[fn] as unknown as Run)(positional, flags, ioOf(cmd), cmd);
  };
}
