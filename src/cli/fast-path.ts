import type { CommonFlags } from './options.js';
import type { CliIO } from './io.js';

// The commands CI scripts call in loops (`svc links get <id> --json` in a poll) run without
// commander. Loading commander and building the program costs more than the rest of the command
// together (issue 28: 1.45× `node -e 0` against a target of 1.25×, where a bare node:http GET
// alone is 1.20×), so for a few read commands main.ts first tries this parser.
//
// It is not a second grammar: it accepts only a strict subset of what commander accepts for
// these commands — one positional id, and the listed flags each at most once, as `--flag value`
// or `--flag=value` — and declines anything else (help, a repeated or unknown flag, a value
// that looks like a flag, `--`, a bad --timeout), which then goes through commander as before,
// so every usage error and help text still comes from one place. What it accepts it must parse
// exactly as commander does: test/cli/fast-path.test.ts feeds the same command lines to both
// and compares the flags the command receives, and runs the commands both ways (SVC_FAST_PATH=0
// turns this off) comparing every byte of output and the exit code.

export interface FastCommand {
  /** The words before the id: `links get` (fast-run.ts maps them to the command's run()). */
  words: readonly [string, string];
  /** Boolean flags of this command beyond the common ones, with their commander property names. */
  booleans?: Record<string, string>;
}

export const FAST_COMMANDS: readonly FastCommand[] = [{ words: ['links', 'get'] }, { words: ['payments', 'get'], booleans: { '--fail-on-failed': 'failOnFailed' } }];

/** apiOptions' flags (options.ts): value flags and their property names. --timeout is parsed below. */
const VALUE_FLAGS: Record<string, 'apiKey' | 'baseUrl' | 'profile' | 'traceId' | 'timeout'> = { '--api-key': 'apiKey', '--base-url': 'baseUrl', '--profile': 'profile', '--trace-id': 'traceId', '--timeout': 'timeout' };
const BOOLEAN_FLAGS: Record<string, string> = { '--json': 'json', '--verbose': 'verbose' };
/** commander's default for --timeout, and the range intFlag(1, 600_000) accepts. */
const DEFAULT_TIMEOUT = 30_000;
const MAX_TIMEOUT = 600_000;

export interface FastInvocation {
  command: FastCommand;
  positional: string[];
  flags: CommonFlags & Record<string, unknown>;
}

/** The invocation when `args` (argv after the script) is one the fast path takes; undefined sends it to commander. */
export function fastInvocation(args: string[], env: CliIO['env']): FastInvocation | undefined {
  if (env.SVC_FAST_PATH === '0') return undefined;
  const command = FAST_COMMANDS.find((c) => args[0] === c.words[0] && args[1] === c.words[1]);
  if (!command) return undefined;
  const flags: FastInvocation['flags'] = { input: true, timeout: DEFAULT_TIMEOUT };
  const seen = new Set<string>();
  const positional: string[] = [];
  for (let i = 2; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (seen.has(name)) return undefined;
    seen.add(name);
    const boolean = BOOLEAN_FLAGS[name] ?? command.booleans?.[name];
    if (boolean !== undefined && eq === -1) flags[boolean] = true;
    else if (name === '--no-input' && eq === -1) flags.input = false;
    else if (VALUE_FLAGS[name] !== undefined) {
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      if (name === '--timeout') {
        if (!/^[1-9][0-9]{0,5}$/.test(value) || Number(value) > MAX_TIMEOUT) return undefined;
        flags.timeout = Number(value);
      } else flags[VALUE_FLAGS[name] as 'apiKey' | 'baseUrl' | 'profile' | 'traceId'] = value;
    } else return undefined;
  }
  if (positional.length !== 1) return undefined;
  return { command, positional, flags };
}
