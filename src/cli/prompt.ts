import { SilentExit, UsageError } from './errors.js';

// Every prompt goes through here. A prompt is shown only on a terminal (stdin and stderr are
// TTYs — prompts write to stderr, so `--json | jq` still works), and never with --no-input or
// CI=true. Otherwise a missing value is a usage error that names the flag to pass instead.

export interface PromptFlags {
  /** false under --no-input (commander's negatable option). */
  input?: boolean;
}

export const EXIT_INTERRUPTED = 130;

export function canPrompt(flags: PromptFlags): boolean {
  if (flags.input === false) return false;
  if (process.env.CI === 'true' || process.env.CI === '1') return false;
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

export function requirePrompt(flags: PromptFlags, flag: string, what: string): void {
  if (!canPrompt(flags)) throw new UsageError(`missing ${flag}: ${what} (no terminal to ask on${flags.input === false ? ', --no-input' : ''}).`);
}

const context = () => ({ input: process.stdin, output: process.stderr });

/** A visible value (an OTP, a name). */
export async function askText(flags: PromptFlags, flag: string, message: string, validate?: (v: string) => true | string): Promise<string> {
  requirePrompt(flags, flag, message);
  const { input } = await import('@inquirer/prompts');
  return interruptible(() => input({ message, validate: validate ?? ((v) => (v.trim() ? true : 'required')) }, context()));
}

/** A masked value (a PIN). */
export async function askSecret(flags: PromptFlags, flag: string, message: string): Promise<string> {
  requirePrompt(flags, flag, message);
  const { password } = await import('@inquirer/prompts');
  return interruptible(() => password({ message, mask: '*', validate: (v) => (v ? true : 'required') }, context()));
}

/**
 * A command that moves money with a live key asks first. --yes answers for scripts; without a
 * terminal and without --yes the command is refused (exit 2) rather than run unconfirmed.
 */
export async function confirmLive(flags: PromptFlags & { yes?: boolean }, target: { environment: 'test' | 'live'; baseUrl: string }, action: string): Promise<void> {
  if (target.environment !== 'live' || flags.yes) return;
  // The host is named: a live key must never go somewhere the user did not mean.
  if (!canPrompt(flags)) throw new UsageError(`refusing to ${action} on ${target.baseUrl} with a LIVE key without confirmation: pass --yes.`);
  const { confirm } = await import('@inquirer/prompts');
  const ok = await interruptible(() => confirm({ message: `LIVE key on ${target.baseUrl}: ${action}?`, default: false }, context()));
  if (!ok) {
    process.stderr.write('cancelled.\n');
    throw new SilentExit(EXIT_INTERRUPTED);
  }
}

/**
 * Asks for a code (OTP, PIN) and tries it; a wrong one (`wrongCodes`) is reported and asked
 * again until the service accepts it or locks (its lock error ends the loop). A value given
 * by flag is tried once: a script gets the error.
 */
export async function askUntilAccepted<T>(
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
      const code = (err as { code?: string }).code;
      if (!wrongCodes.includes(code ?? '') || !canPrompt(flags)) throw err;
      process.stderr.write(`${(err as Error).message}\n`);
    }
  }
}

async function interruptible<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (err) {
    // Ctrl-C inside a prompt: stop without a stack trace.
    if ((err as Error).name === 'ExitPromptError' || (err as Error).name === 'AbortPromptError') {
      process.stderr.write('\ncancelled.\n');
      throw new SilentExit(EXIT_INTERRUPTED);
    }
    throw err;
  }
}
