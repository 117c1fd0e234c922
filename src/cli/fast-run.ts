import { EXIT, quietOnClosedPipe } from './errors.js';
import { exitCodeFor } from './exit.js';
import type { FastWords } from './fast-path.js';
import { flagName, type FlagTable, type FlagsOf } from './flags.js';
import type { CliIO } from './io.js';
import { loadColour } from './output.js';
import { LINKS } from './commands/links/flags.js';
import { PAYMENTS } from './commands/payments/flags.js';
import { run as linksGet } from './commands/links/get.js';
import { run as paymentsGet } from './commands/payments/get.js';

// What the fast path runs (fast-path.ts named the command): the same run() of the same command
// module that commander's action calls (options.ts define()), with the flags read from the same
// table, the same IO and exit codes. Imported statically here so the fast path is two files:
// fast.cjs, which picks the command, and this one (scripts/build-bundles.mjs).
//
// It is not a second grammar: it accepts only a strict subset of what commander accepts for
// these commands — one positional id, and the table's flags each at most once, as
// `--flag value` or `--flag=value` — and declines anything else (a repeated or unknown flag, a
// value that looks like a flag or that the flag's parser refuses, `--`), which then goes
// through commander as before, so every usage error still comes from one place.
// test/cli/fast-path.test.ts feeds the same command lines to both and compares the flags the
// command receives, and runs the commands both ways (SVC_FAST_PATH=0 turns this off) comparing
// every byte of output and the exit code.

export interface FastCommand<T extends FlagTable = FlagTable> {
  flags: T;
  run(positional: string[], flags: FlagsOf<T>, io: CliIO): Promise<void>;
}

const fast = <T extends FlagTable>(flags: T, run: FastCommand<T>['run']): FastCommand<T> => ({ flags, run });

export const FAST_COMMANDS: { [W in FastWords]: FastCommand } = {
  'links get': fast(LINKS.get, linksGet),
  'payments get': fast(PAYMENTS.get, paymentsGet),
};

export interface FastInvocation<T extends FlagTable = FlagTable> {
  positional: string[];
  /** As commander hands them to the command: the given ones parsed, the rest their defaults, in the table's order. */
  flags: FlagsOf<T>;
}

/** `args` (argv after the script, the command's two words first) read with `table`; undefined when commander must read them. */
export function fastInvocation<T extends FlagTable>(table: T, args: string[]): FastInvocation<T> | undefined {
  const byName = new Map(Object.entries(table).map(([prop, spec]) => [flagName(prop, spec), { prop, spec }]));
  const given: Record<string, unknown> = {};
  const positional: string[] = [];
  for (let i = 2; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = byName.get(eq === -1 ? arg : arg.slice(0, eq));
    if (!flag || flag.prop in given) return undefined;
    const { prop, spec } = flag;
    if (spec.value === undefined) {
      if (eq !== -1) return undefined;
      given[prop] = !spec.negate;
      continue;
    }
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    try {
      given[prop] = spec.parse ? spec.parse(value, undefined) : value;
    } catch {
      return undefined;
    }
  }
  if (positional.length !== 1) return undefined;
  const flags: Record<string, unknown> = {};
  for (const [prop, spec] of Object.entries(table)) {
    const value = prop in given ? given[prop] : spec.negate ? true : spec.default;
    if (value !== undefined) flags[prop] = value;
    else if (spec.required) return undefined;
  }
  // Read with this very table, as commander's opts() is (options.ts define()).
  return { positional, flags: flags as FlagsOf<T> };
}

/** Runs the command line, or returns undefined (nothing done) for commander to read it. */
export async function runFastLine(words: FastWords, args: string[], io: CliIO): Promise<number | undefined> {
  const command = FAST_COMMANDS[words];
  const invocation = fastInvocation(command.flags, args);
  if (!invocation) return undefined;
  if (io.stdout === process.stdout || io.stderr === process.stderr) quietOnClosedPipe();
  try {
    await loadColour(io);
    await command.run(invocation.positional, invocation.flags, io);
    return EXIT.ok;
  } catch (err) {
    return exitCodeFor(err, args, io);
  }
}
