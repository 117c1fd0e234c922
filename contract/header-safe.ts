import { z } from 'zod';

// What a client-chosen token that travels in an HTTP header may hold: idempotency keys (rule 2:
// "any string of at most 255 characters") and X-Trace-ID. "Header-safe" is printable ASCII,
// space included (0x20–0x7e), 1 to `max` characters, with no space at either end: HTTP trims
// whitespace around header values, so such a value could not arrive as sent. Everything else
// is refused by name, so a client learns exactly what to fix.

/** A client's X-Trace-ID is echoed when it is header-safe and at most this long; otherwise one is generated. */
export const MAX_TRACE_ID_LENGTH = 255;

export const HEADER_SAFE_PATTERN = '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$';

const describeChar = (ch: string) => {
  const code = ch.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code >= 0x21 && code <= 0x7e ? `"${ch}" (${hex})` : hex;
};

/** Why `value` is not header-safe, or null when it is. Positions are 1-based. */
export function headerSafeProblem(value: string, max: number): string | null {
  if (value.length === 0) return 'is empty';
  if (value.length > max) return `is ${value.length} characters long, ${value.length - max} over the ${max}-character limit`;
  let i = 0;
  for (const ch of value) {
    i++;
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code > 0x7e) return `has a character that is not allowed at position ${i}: ${describeChar(ch)} (printable ASCII only, space to "~")`;
  }
  if (value.startsWith(' ')) return 'starts with a space (HTTP trims spaces around header values, so it could not arrive as sent)';
  if (value.endsWith(' ')) return 'ends with a space (HTTP trims spaces around header values, so it could not arrive as sent)';
  return null;
}

export const isHeaderSafe = (value: string, max: number) => headerSafeProblem(value, max) === null;

/** The same rule as a zod string (body keys): the JSON schema shows it, the messages are the ones above. */
export function headerSafeString(max: number) {
  const problem = (iss: { input?: unknown }) => headerSafeProblem(String(iss.input), max) ?? 'is not header-safe';
  return z
    .string()
    .min(1, { abort: true, error: 'is empty' })
    .max(max, { abort: true, error: problem })
    .regex(new RegExp(HEADER_SAFE_PATTERN), { error: problem });
}
