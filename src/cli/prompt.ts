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
export async function confirmLive(flags: PromptFlags & { yes?: boolean }, environment: 'test' | 'live', action: string): Promise<void> {
  if (environment !== 'live' || flags.yes) return;
  if (!canPrompt(flags)) throw new UsageError(`refusing to ${action} with a LIVE key without confirmation: pass --yes.`);
  const { confirm } = await import('@inquirer/prompts');
  const ok = await interruptible(() => confirm({ message: `LIVE key: ${action}?`, default: false }, context()));
  if (!ok) {
    process.stderr.write('cancelled.\n');
    throw new SilentExit(EXIT_INTERRUPTED);
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
