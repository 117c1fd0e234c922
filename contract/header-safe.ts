// What travels in an HTTP header. FIELD_VALUE_PATTERN: anything HTTP lets a header value hold
// (idempotency keys in headers are any such value of 1-255 bytes: contract/idempotency.ts).
// "Header-safe": the narrower rule X-Trace-ID is still echoed under — printable ASCII, space
// included (0x20–0x7e), 1 to `max` characters, with no space at either end.

/** A client's X-Trace-ID is echoed when it is header-safe and at most this long; otherwise one is generated. */
export const MAX_TRACE_ID_LENGTH = 255;

export const HEADER_SAFE_PATTERN = '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$';

/**
 * What any HTTP header value can hold (RFC 9110 field-value), as a JSON Schema pattern: visible
 * ASCII, spaces and tabs inside, and the bytes 0x80-0xFF, which node reads one byte per
 * character (latin1), so U+0080-U+00FF here stand for those bytes. Node's parser refuses
 * anything else before a route sees it and trims spaces and tabs at either end: a header value
 * that arrived always matches. Idempotency keys in headers are exactly this (1-255 bytes).
 */
export const FIELD_VALUE_PATTERN = '^[\\x21-\\x7e\\x80-\\xff]([\\t\\x20-\\x7e\\x80-\\xff]*[\\x21-\\x7e\\x80-\\xff])?$';

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
