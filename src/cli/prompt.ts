import { SilentExit, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { codeOf, messageOf } from '../../contract/errors.js';

// Every prompt goes through here. A prompt is shown only on a terminal (the IO's stdin and
// stderr are TTYs — prompts write to stderr, so `--json | jq` still works), and never with
// --no-input or CI=true. Otherwise a missing value is a usage error that names the flag to
// pass instead.

interface PromptFlags {
  /** false under --no-input (commander's negatable option). */
  input?: boolean;
}

const EXIT_INTERRUPTED = 130;

function canPrompt(io: CliIO, flags: PromptFlags): boolean {
  if (flags.input === false) return false;
  if (io.env.CI === 'true' || io.env.CI === '1') return false;
  return Boolean(io.stdin.isTTY && io.stderr.isTTY);
}

export function requirePrompt(io: CliIO, flags: PromptFlags, flag: string, what: string): void {
  if (!canPrompt(io, flags)) throw new UsageError(`missing ${flag}: ${what} (no terminal to ask on${flags.input === false ? ', --no-input' : ''}).`);
}

const context = (io: CliIO) => ({ input: io.stdin, output: io.stderr });

/** A visible value (an OTP, a name). */
export async function askText(io: CliIO, flags: PromptFlags, flag: string, message: string, validate?: (v: string) => true | string): Promise<string> {
  requirePrompt(io, flags, flag, message);
  const { input } = await import('@inquirer/prompts');
  return interruptible(io, () => input({ message, validate: validate ?? ((v) => (v.trim() ? true : 'required')) }, context(io)));
}

/** A masked value (a PIN). */
export async function askSecret(io: CliIO, flags: PromptFlags, flag: string, message: string): Promise<string> {
  requirePrompt(io, flags, flag, message);
  const { password } = await import('@inquirer/prompts');
  return interruptible(io, () => password({ message, mask: '*', validate: (v) => (v ? true : 'required') }, context(io)));
}

/**
 * A command that moves money with a live key asks first. --yes answers for scripts; without a
 * terminal and without --yes the command is refused (exit 2) rather than run unconfirmed.
 */
export async function confirmLive(io: CliIO, flags: PromptFlags & { yes?: boolean }, target: { environment: 'test' | 'live'; baseUrl: string }, action: string): Promise<void> {
  if (target.environment !== 'live' || flags.yes) return;
  // The host is named: a live key must never go somewhere the user did not mean.
  if (!canPrompt(io, flags)) throw new UsageError(`refusing to ${action} on ${target.baseUrl} with a LIVE key without confirmation: pass --yes.`);
  const { confirm } = await import('@inquirer/prompts');
  const ok = await interruptible(io, () => confirm({ message: `LIVE key on ${target.baseUrl}: ${action}?`, default: false }, context(io)));
  if (!ok) {
    io.stderr.write('cancelled.\n');
    throw new SilentExit(EXIT_INTERRUPTED);
  }
}

/**
 * Asks for a code (OTP, PIN) and tries it; a wrong one (`wrongCodes`) is reported and asked
 * again until the service accepts it or locks (its lock error ends the loop). A value given
 * by flag is tried once: a script gets the error.
 */
export async function askUntilAccepted<T>(
  io: CliIO,
  flags: PromptFlags,
  given: string | undefined,
  ask: () => Promise<string>,
  attempt: (value: string) => Promise<T>,
  wrongCodes: string[],
): Promise<T> {
  if (given !== undefined) return attempt(given);
  for (;;) {
    const value = await ask();
    try {
      return await attempt(value);
    } catch (err) {
      const code = codeOf(err);
      if (!wrongCodes.includes(code ?? '') || !canPrompt(io, flags)) throw err;
      io.stderr.write(`${messageOf(err)}\n`);
    }
  }
}

async function interruptible<T>(io: CliIO, ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (err) {
    // Ctrl-C inside a prompt: stop without a stack trace.
    if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
      io.stderr.write('\ncancelled.\n');
      throw new SilentExit(EXIT_INTERRUPTED);
    }
    throw err;
  }
}
