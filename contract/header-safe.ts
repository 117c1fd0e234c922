// What an HTTP header value can hold (RFC 9110 field-value): visible ASCII, spaces and tabs
// inside, and the bytes 0x80–0xFF, which node reads one byte per character (latin1). Node's
// parser refuses anything else before a route sees it (400 in the envelope) and trims spaces
// and tabs at either end, and its setHeader accepts the same set on the way out: a value that
// arrived can always be sent back as it is. Two client values are such values, whatever else
// they are: an idempotency key in a header (1–255 bytes: contract/idempotency.ts) and
// X-Trace-ID, echoed at any length node accepted (its 16 KB limit on a request's headers; over
// it node answers 431 in the envelope before any route runs).

/**
 * One header value as a JSON Schema pattern: U+0080–U+00FF stand for the bytes 0x80–0xFF.
 * Used by /openapi.yaml for the idempotency header and X-Trace-ID.
 */
export const FIELD_VALUE_PATTERN = '^[\\x21-\\x7e\\x80-\\xff]([\\t\\x20-\\x7e\\x80-\\xff]*[\\x21-\\x7e\\x80-\\xff])?$';

// The same set, tested character by character (no backtracking over a 16 KB value).
const FIELD_CHAR = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Whether `value` can be sent back in a response header as it is: not empty, and only what a
 * header value may hold. Every value node's parser accepted passes; the check keeps a value
 * from elsewhere (a lenient parser, a bug) from reaching setHeader, which would throw.
 */
export const isFieldValue = (value: string): boolean => value.length > 0 && FIELD_CHAR.test(value);

/** How X-Trace-ID is treated, as /openapi.yaml says it. */
export const TRACE_ID_RULE =
  "The client's value is echoed back as it arrived, at any length the server accepts in a request's headers (16 KB in all; over it the answer is 431); " +
  'an empty one, or none, is replaced by a generated trc_ + 24 hex';
