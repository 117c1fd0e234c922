import { clean, isSecretName } from '../../contract/redact.js';
import { REDACTED } from '../../contract/request-curl.js';
import { maskSecret } from '../../contract/keys.js';
import type { Env } from './io.js';

// What the CLI says on stderr when a command line fails often quotes what it was handed: a
// mistyped flag with its value (`unknown option '--pin=1357'`), a value a flag refused, a URL, a
// server's message. No key, card number, PIN, OTP or secret leaves in full, wherever it sat:
// keys and card numbers by their shape (the emulator's rules, contract/redact.ts),
// and the values of this command line's secret flags (--api-key, --pin, --otp, --secret,
// --control-token: any flag whose name the same rules call secret) and of SVC_* variables with
// such a name, wherever they appear in the text. Loaded only when there is a failure to report.

/** A value shorter than this is not looked for in the text: `--pin 1` would mask every 1. */
const SHORTEST = 4;

/** The values a command line and the SVC_* variables hold under secret names. */
function heldValues(args: readonly string[], env: Env): string[] {
  const held: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const m = /^--?([^=]+)(?:=(.*))?$/s.exec(args[i]);
    if (!m) continue;
    const value = m[2] ?? (args[i + 1]?.startsWith('-') === false ? args[i + 1] : undefined);
    if (value !== undefined && isSecretName(m[1], value)) held.push(value);
  }
  for (const [name, value] of Object.entries(env)) if (name.startsWith('SVC_') && value && isSecretName(name, value)) held.push(value);
  // The longest first: a secret that holds a shorter one is replaced whole.
  return [...new Set(held.filter((v) => v.length >= SHORTEST))].sort((a, b) => b.length - a.length);
}

/** A long secret keeps its last 4 (a key its prefix too), as the emulator shows them; a PIN or an OTP keeps nothing. */
const masked = (value: string) => (value.length >= 16 ? maskSecret(value) : REDACTED);

/** Where `value` stands as a word of its own (a PIN 1357 inside an amount 13579 is not it). */
const standing = (value: string) => new RegExp(`(?<![A-Za-z0-9])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'g');

/** Cleans a text the CLI writes about a failure of this command line (`args`: the words after `svc`). */
export function redactorFor(args: readonly string[], env: Env): (text: string) => string {
  const held = heldValues(args, env).map((value) => ({ at: standing(value), as: masked(value) }));
  return (text) => clean(held.reduce((out, { at, as }) => out.replace(at, () => as), text));
}
