import { maskSecret } from '../../contract/keys.js';
import { REDACTED, WITHHELD } from '../../contract/request-curl.js';

// What no part of a request log entry may hold, taken out as the entry is made (record.ts):
//   - a card number: 12-19 digits in a row passing Luhn (any window of a longer run), separated by
//     spaces, dashes, dots, NBSP… or not, full-width too, keeps its last 4 (Luhn spares most phone
//     numbers, amounts and ids); an API key anywhere keeps its svc_test_/svc_live_ prefix and last 4;
//   - JSON: the value of a field whose name contains pin, otp, secret, passw, token, cvv or cvc,
//     in any case style (userPin, USER_PIN, user-pin, "user pin"), becomes "[redacted]";
//   - path, query, text that is not JSON (form-encoded, broken JSON): the value after a name with
//     those words or key, code, card (`api_key=…`, `"pin": "…"`, `pin: …`; percent-encoding read).
// A body with nothing that could be redacted (the common case) costs a few quick tests, not a parse.

const MAX_BODY = 64 * 1024;
const BODY_SECRET = /pin|otp|secret|passw|token|cvv|cvc|verification_?code|code_?hash/i;
const TEXT_SECRET = /pin|otp|secret|passw|token|cvv|cvc|key|code|card/i;
// A field name redaction acts on, as JSON text shows it: the word, then the rest of the name, its quote and colon.
const SECRET_FIELD_TEXT = new RegExp(`(?:${BODY_SECRET.source})[^"]*"\\s*:`, 'i');
const KEY_IN_TEXT = /svc_(?:test|live)_[A-Za-z0-9]+/g;
// ASCII and full-width digits; between two of them up to 3 separators (whitespace, dashes, dots, slashes, commas, +).
const SEPARATOR = '[\\s\\-.,_/+\\u00b7\\u2010-\\u2015\\u2212\\u2024\\u30fb\\ufe63\\uff0c\\uff0d\\uff0e\\uff0f\\uff3f\\uff61]{0,3}';
const DIGIT_RUN = new RegExp(`(?<![0-9\\uff10-\\uff19])[0-9\\uff10-\\uff19](?:${SEPARATOR}[0-9\\uff10-\\uff19]){11,}`, 'g');
const ANY_DIGIT = /[0-9\uff10-\uff19]/g;
// name, then = or : (the name may be quoted), then the value: quoted, or up to a delimiter.
const NAMED_VALUE = /([\p{L}\p{N}_.-]+)(["']?\s*[:=]\s*)("[^"]*"?|'[^']*'?|[^\s&,;"'}\]]+)/gu;

/** Whether some 12-19 digits of the run in a row pass Luhn (a run too long to read is masked whole). */
function holdsCard(run: string): boolean {
  const digits = Array.from(run.matchAll(ANY_DIGIT), ([d]) => Number(d.normalize('NFKC')));
  if (digits.length > 64) return true;
  // Every window ending at `end`, Luhn summed from its last digit back (every second one doubled).
  for (let end = 12; end <= digits.length; end++) {
    for (let i = 0, sum = 0; i < 19 && i < end; i++) {
      const d = i % 2 === 1 ? digits[end - 1 - i] * 2 : digits[end - 1 - i];
      sum += d > 9 ? d - 9 : d;
      if (i >= 11 && sum % 10 === 0) return true;
    }
  }
  return false;
}

/** Every digit but the last 4 becomes *. */
function maskDigits(s: string): string {
  let left = (s.match(ANY_DIGIT)?.length ?? 0) - 4;
  return s.replace(ANY_DIGIT, (d) => (left-- > 0 ? '*' : d));
}

const maskCards = (s: string) => s.replace(DIGIT_RUN, (run) => (holdsCard(run) ? maskDigits(run) : run));
const maskKeys = (s: string) => (s.includes('svc_') ? s.replace(KEY_IN_TEXT, maskSecret) : s);
// (match() and replace() leave a global regex's lastIndex at 0: nothing of one call is left for the next.)
const hasCard = (s: string) => (s.match(DIGIT_RUN) ?? []).some(holdsCard);

/** A string without card numbers or keys (a JSON string, the idempotency key, a trace id). */
export const clean = (s: string): string => maskCards(maskKeys(s));

/** Text that is not JSON: values of secret-looking names too. */
function redactText(text: string): string {
  const named = text.replace(NAMED_VALUE, (all, name: string, sep: string, value: string) =>
    TEXT_SECRET.test(name) ? `${name}${sep}${value[0] === '"' || value[0] === "'" ? `${value[0]}${REDACTED}${value[0]}` : REDACTED}` : all,
  );
  return clean(named);
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};
/** A URL part redacted as the text it stands for, encoded again only if something changed. */
function part(raw: string, rule: (s: string) => string): string {
  const text = decode(raw);
  const out = rule(text);
  return out === text ? raw : encodeURIComponent(out).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/** `a=1&pin=2` (a query, a form-encoded body): each name read decoded, a secret one's value redacted. */
function redactForm(text: string): string {
  return text.replace(/([^&=]*)=([^&]*)|[^&]+/g, (pair, name: string | undefined, value: string) =>
    name === undefined ? part(pair, redactText) : `${part(name, redactText)}=${value !== '' && TEXT_SECRET.test(decode(name)) ? REDACTED : part(value, redactText)}`,
  );
}

/** The path with its query as sent, redacted. */
export function redactPath(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // Most paths and queries hold no word a rule reads, no encoding, no key and no card: kept as sent.
  if (!TEXT_SECRET.test(url) && !url.includes('%') && !url.includes('svc_') && !hasCard(url)) return url;
  const out = path.split('/').map((segment) => part(segment, redactText)).join('/');
  return q === -1 ? out : `${out}?${redactForm(url.slice(q + 1))}`;
}

/** Whether the JSON text may hold something the walk would change. */
const mayHoldSecret = (text: string) => text.includes('\\') || text.includes('svc_') || SECRET_FIELD_TEXT.test(text) || hasCard(text);

function walk(value: unknown, field: string | null): unknown {
  if (field !== null && value !== null && BODY_SECRET.test(field)) return REDACTED;
  if (typeof value === 'string') return clean(value);
  if (typeof value === 'number') {
    const text = String(value);
    const out = clean(text);
    // A number past 2^53 lost digits in the parse: what it was cannot be checked.
    return out !== text ? out : Number.isInteger(value) && !Number.isSafeInteger(value) ? REDACTED : value;
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, null));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), walk(v, k)]));
}

const cut = (text: string) => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…[cut at 64 KB]` : text);

/** A JSON body (an answer) as the log keeps it: redacted, cut at 64 KB; null for none. */
export function redactBody(text: string | null): string | null {
  if (text === null || text === '') return null;
  return cut(mayHoldSecret(text) ? JSON.stringify(walk(JSON.parse(text), null)) : text);
}

/**
 * A request body as sent, redacted; null for none. `parsed`: the JSON parser's value (undefined:
 * not JSON). JSON with nothing to redact keeps its layout; other text gets the text rules, unless
 * it has a backslash (an escape may spell a name the rules cannot read, `p\u0069n`): then none is kept.
 */
export function redactRequest(text: string | null, parsed: unknown): string | null {
  if (text === null || text === '') return null;
  if (parsed === undefined) return text.includes('\\') ? WITHHELD : cut(/^[^\s{["]*=/.test(text) ? redactForm(text) : redactText(text));
  return cut(mayHoldSecret(text) ? JSON.stringify(walk(parsed, null)) : text);
}
