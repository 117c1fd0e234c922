import { KEY_PATTERN } from '../../contract/keys.js';
import { REDACTED, WITHHELD } from '../../contract/request-curl.js';

// What a request log body may never hold, and how it is taken out. Bodies are JSON text; the
// common case (nothing sensitive in it) is three quick tests and the text is kept as it is. When a
// test hits (a field named like one below, a long digit run, a key), the JSON is parsed and walked:
//   - a field named like a secret, a PIN, an OTP, a CVV or a password: its value becomes "[redacted]"
//     (webhook endpoint secrets are the `secret` field of a create answer);
//   - a run of 13-19 digits (spaces or dashes allowed) that passes the Luhn check, or any value of
//     a card-number field: every digit but the last 4 becomes "*" (Luhn keeps most phone numbers
//     and amounts readable);
//   - an API key anywhere in a string: all but its last 4 characters are dropped.
// Text that is not JSON is kept only when the same tests find nothing in it.

const MAX_BODY = 64 * 1024;

// What sends a text to the parse and walk below: a field name that redaction acts on, followed
// by its colon; a run of digits that would be masked (13-19 passing the Luhn check); a key. Value
// words ("card" in a list of payment methods), shorter runs and runs that fail Luhn (a UUID's
// hex) do not count, so most answers skip the parse. Each test is looser than what the walk acts
// on (a field name need not start at a part boundary; any "svc_"), so none lets through a text
// the walk would change; together they take about half the time of one regex with all three
// alternatives, which tried each of them at every character.
const SENSITIVE_FIELD = /(?:secret|pin|otp|cvv|cvc|password|number|pan|verification_code|code_hash)(?:_[a-z0-9]+)*"\s*:/i;
// From the start of a run only: starting again at each digit inside one re-read it.
const LONG_DIGIT_RUN = /(?<!\d)\d(?:[ -]?\d){12}/;
const looksSensitive = (text: string) => text.includes('svc_') || (LONG_DIGIT_RUN.test(text) && hasCardRun(text)) || SENSITIVE_FIELD.test(text);
const SECRET_FIELD = /(^|_)(secret|pin|otp|cvv|cvc|password|code_hash|pin_hash)(_|$)|^(otp_code|verification_code)$/i;
const CARD_FIELD = /(^|_)(card_number|number|pan)$/i;
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;
const KEY_IN_TEXT = /svc_(test|live)_[A-Za-z0-9]+/g;

const maskDigits = (s: string) => {
  const total = s.replace(/\D/g, '').length;
  let seen = 0;
  return s.replace(/\d/g, (d) => (++seen > total - 4 ? d : '*'));
};
const maskKey = (k: string) => (KEY_PATTERN.test(k) ? `${/^svc_(test|live)_/.exec(k)![0]}…${k.slice(-4)}` : k);
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1 && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}
const isCardRun = (run: string) => luhn(run.replace(/\D/g, ''));
const maskCardRun = (run: string) => (isCardRun(run) ? maskDigits(run) : run);
const CARD_RUN_SCAN = new RegExp(DIGIT_RUN.source, 'g');
/**
 * Whether cleanString would mask a run somewhere in the text: the runs of the text are those of
 * its strings, which quotes delimit — except after an escape (\u0012 adds digits in the text
 * that the string does not have, and moves where runs start), so a text with one counts as yes.
 */
function hasCardRun(text: string): boolean {
  if (text.includes('\\')) return true;
  CARD_RUN_SCAN.lastIndex = 0;
  for (let m = CARD_RUN_SCAN.exec(text); m !== null; m = CARD_RUN_SCAN.exec(text)) if (isCardRun(m[0])) return true;
  return false;
}
const cleanString = (s: string) => s.replace(DIGIT_RUN, maskCardRun).replace(KEY_IN_TEXT, maskKey);

function walk(value: unknown, field: string | null): unknown {
  if (field !== null && SECRET_FIELD.test(field) && value !== null && typeof value !== 'object') return REDACTED;
  if (typeof value === 'string') return field !== null && CARD_FIELD.test(field) ? maskDigits(value) : cleanString(value);
  if (typeof value === 'number' && field !== null && CARD_FIELD.test(field)) return maskDigits(String(value));
  if (Array.isArray(value)) return value.map((v) => walk(v, null));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, k);
    return out;
  }
  return value;
}

/** A parsed JSON value as redacted JSON text, walked whole (what the quick tests spare most bodies). */
export const redactJson = (value: unknown): string => JSON.stringify(walk(value, null));

const cut = (text: string) => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…[cut at 64 KB]` : text);

/** The body as the log keeps it: redacted JSON text, cut at 64 KB; null for no body. */
export function redactBody(text: string | undefined | null): string | null {
  if (text === undefined || text === null || text === '') return null;
  let out = text;
  if (looksSensitive(text)) {
    try {
      out = redactJson(JSON.parse(text));
    } catch {
      out = cleanString(text);
    }
  }
  return cut(out);
}

/**
 * A request body as the client sent it (JSON text, or text that failed to parse: the log shows
 * why it was refused), redacted; null for none. Unlike an answer, the text is the client's, so:
 *   - an escape may spell a field name (`"p\u0069n"` is "pin"), which the quick tests read as
 *     other characters: a text with a backslash is always parsed and walked;
 *   - a text that the tests flag (or with a backslash) but that is not JSON has no fields to
 *     redact by name: it is withheld whole, rather than kept with only its digit runs masked.
 */
export function redactRequest(text: string | null): string | null {
  if (text === null || text === '') return null;
  if (!text.includes('\\') && !looksSensitive(text)) return cut(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return WITHHELD; // it has a backslash or the tests flagged it: nothing says which part to hide
  }
  return cut(redactJson(parsed));
}
