import { maskSecret } from './keys.js';
import { REDACTED, WITHHELD } from './request-curl.js';
import { PLUS_PHONE_IN_TEXT } from './phone-pattern.js';

// What no text svc writes or shows may hold: the request log's entries (issue 37), every line on
// the emulator's console and every error answer's message (issue 46), and what the CLI says when a
// command line fails (src/cli/redact-failure.ts). Taken out as the text is made:
//   - the value under a secret name. One list: a name is split into words whatever its case style
//     (api_key, apiKey, API-KEY, "api key", api.key, pin1) and is secret when a word is in
//     SECRET_WORDS, unless it ends in a word that names what is shown on purpose (card_last4,
//     fleet_card_id, secret_hint, key_name) or is the idempotency key; a phrase of SECRET_PHRASES
//     is secret whatever the end (session_id, api_key_id). `code` alone is secret only when its value is
//     4-8 digits (an OTP or a PIN; not error_code or link_code). Whole words: shipping is no pin.
//   - whatever the name: an svc key (test, live, control) keeps its prefix and last 4; a secret this
//     emulator holds that has no fixed shape (an endpoint's signing secret, the control token) keeps
//     its last 4; a card number keeps its last 4: 12-19 digits passing Luhn (any window of a longer
//     run), ASCII or full-width, with up to 8 separators between two of them (spaces, zero-width
//     spaces, dashes, dots, slashes, commas, +, :, |, NBSP…). Luhn spares most amounts; ids and
//     phones are spared outright: digits inside a UUID, a prefixed id (pay_…, pl_…, trc_cli_…), an
//     ISO time, an IPv4 address or a phone after its + (+231770000201, "+231 77 000 0201") are never
//     a card, so an id, a trace id, an idempotency key or a phone comes back as it was sent unless
//     it is itself card-shaped or key-shaped.
// A text with nothing that could be redacted (the common case) costs a few quick tests, not a parse.

const MAX_BODY = 64 * 1024;

/** A name holding one of these words is secret, unless it ends in a word of SHOWN_ENDINGS. */
const SECRET_WORDS = new Set([
  ...['key', 'keys', 'secret', 'secrets', 'token', 'tokens', 'password', 'passwords', 'passwd', 'pwd', 'passcode', 'passphrase'],
  ...['pin', 'pins', 'otp', 'cvv', 'cvc', 'card', 'cards', 'pan', 'session', 'authorization', 'authorisation', 'credential', 'credentials'],
]);
/** A name holding one of these phrases is secret whatever it ends in. */
const SECRET_PHRASES = [['api', 'key'], ['session', 'id'], ['card', 'number'], ['security', 'code'], ['one', 'time', 'code'], ['verification', 'code'], ['code', 'hash']];
/** The last word (digits aside) of a name that shows a part of a secret thing on purpose: its id, last 4, hint, brand… */
const SHOWN_ENDINGS = new Set(['id', 'ids', 'last', 'hint', 'brand', 'name', 'count', 'type', 'status', 'at']);
/** Some name words as a case-insensitive substring: a superset of the secret names, for the quick tests. */
const NAME_HINT = '(?<!idempotency_)key|secret|token|passw|pwd|passcode|passphrase|pin|otp|cvv|cvc|card|pan|session|authori[sz]ation|credential|secur|time.?code|verif|hash';
const NAME_HINT_TEXT = new RegExp(`${NAME_HINT}|code`, 'i');
const DIGITS = '[0-9\\uff10-\\uff19]';
/** JSON text that may hold a secret name: a name with a hint, or one with `code` and a 4-8 digit value. */
const SECRET_FIELD_TEXT = new RegExp(`(?:${NAME_HINT})[^"]*"\\s*:|code[^"]*"\\s*:\\s*"?\\s*${DIGITS}{4,8}(?!${DIGITS})`, 'i');
const DIGIT_CODE = new RegExp(`^\\s*${DIGITS}{4,8}\\s*$`);
// Word boundaries of every case style: letter|digit, digit|letter, lower|Upper, UPPER|Upper-lower.
const WORD_BOUNDARY = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu;

// Most names an API sees are lower snake case: split without the regex of every case style.
const wordsOf = (name: string) =>
  /^[a-z]+(?:_[a-z]+)*$/.test(name) ? name.split('_') : name.replace(WORD_BOUNDARY, ' ').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
const hasPhrase = (words: string[], phrase: string[]) => words.some((_, i) => phrase.every((p, j) => words[i + j] === p));

/** Whether the value under `name` is a secret (the value matters only for `code`). */
export function isSecretName(name: string, value: unknown): boolean {
  if (!NAME_HINT_TEXT.test(name)) return false; // the common case: not even the letters of a word of the list
  const words = wordsOf(name);
  if (SECRET_PHRASES.some((p) => hasPhrase(words, p))) return true;
  const ending = words.filter((w) => !/^\p{N}+$/u.test(w)).pop();
  const secretWord = words.some((w, i) => SECRET_WORDS.has(w) && !(w === 'key' && words[i - 1] === 'idempotency'));
  if (secretWord && (ending === undefined || !SHOWN_ENDINGS.has(ending))) return true;
  return words.includes('code') && (typeof value === 'number' ? DIGIT_CODE.test(String(Math.abs(value))) : typeof value === 'string' && DIGIT_CODE.test(value));
}

/**
 * Secrets of one emulator that have no fixed shape, so no pattern finds them: its endpoints'
 * signing secrets and its control token. `holds` is asked about every run of 32 or more
 * base64url characters (what both are made of).
 */
export interface HeldSecrets {
  holds(token: string): boolean;
}
export const NO_HELD_SECRETS: HeldSecrets = { holds: () => false };
// Only from a run's first character: tried inside a run too short to match, the search would read
// the rest of that run again from every position (most of the cost of a body's quick tests).
const LONG_TOKEN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}/g;
const KEY_IN_TEXT = /svc_(?:test|live)_[A-Za-z0-9]+|svc_ctl_[A-Za-z0-9_-]+/g;

// ASCII and full-width digits; between two of them up to 8 separators.
const SEPARATOR =
  '[\\s\\u200b-\\u200d\\u2060\\-.,_/+:|\\u00b7\\u2010-\\u2015\\u2212\\u2024\\u30fb\\ufe63\\uff0c\\uff0d\\uff0e\\uff0f\\uff1a\\uff3f\\uff5c\\uff61]{0,8}';
const DIGIT_RUN = new RegExp(`(?<!${DIGITS})${DIGITS}(?:${SEPARATOR}${DIGITS}){11,}`, 'g');
const ANY_DIGIT = /[0-9\uff10-\uff19]/g;
// What holds digits but is never a card: ids (a token of letters, digits, _ and - that is a UUID, or a
// lowercase prefix, _, and a body with a letter or of 20+ digits), ISO times, IPv4 addresses, and
// phones written with their + (8-15 digits, separated as contract/phone-pattern.ts allows, no digit after).
const ID_CHAR = '[A-Za-z0-9_-]';
const UUID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
const PREFIXED_ID = '[a-z]{2,12}(?:_[a-z]{2,12})*_(?:(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{8,}|[0-9]{20,})';
const ISO_TIME = '\\d{4}-\\d\\d-\\d\\d(?:[T ]\\d\\d:\\d\\d(?::\\d\\d(?:[.,]\\d{1,9})?)?(?:Z|[+-]\\d\\d(?::?\\d\\d)?)?)?|\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d{1,9})?';
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}(?::\\d{1,5})?`;
const NOT_A_CARD = new RegExp(`(?<!${ID_CHAR})(?:${UUID}|${PREFIXED_ID})(?!${ID_CHAR})|(?<![0-9.])(?:${ISO_TIME}|${IPV4})(?![0-9])|${PLUS_PHONE_IN_TEXT}`, 'g');
// name (up to 5 words on one line: `security code: …`), then = or : (the name may be quoted), then
// the value: quoted, or up to a delimiter.
const NAMED_VALUE = /([\p{L}\p{N}_.-]+(?:[ \t]+[\p{L}\p{N}_.-]+){0,4})(["']?\s*[:=]\s*)("[^"]*"?|'[^']*'?|[^\s&,;"'}\]]+)/gu;

/** Whether some 12-19 digits of the run in a row pass Luhn (a run too long to read is masked whole). */
function holdsCard(run: string): boolean {
  const digits: number[] = [];
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits.push(c - 0x30);
    else if (c >= 0xff10 && c <= 0xff19) digits.push(c - 0xff10); // full-width
  }
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

// (match() and replace() leave a global regex's lastIndex at 0: nothing of one call is left for the next.)
/** Fewer than 12 digits in all: no card can be there (most strings: no regex run at all). */
function tooFewDigits(s: string): boolean {
  let n = 0;
  for (let i = 0; i < s.length && n < 12; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0xff10 && c <= 0xff19)) n++;
  }
  return n < 12;
}
const hasCard = (s: string) => !tooFewDigits(s) && (s.match(DIGIT_RUN) ?? []).some(holdsCard);
const maskRuns = (s: string) => s.replace(DIGIT_RUN, (run) => (holdsCard(run) ? maskDigits(run) : run));

/** The stretches of `s` where a card is looked for: between its ids, times and addresses (each with the one that ends it). */
function* stretches(s: string): Generator<[string, string]> {
  let from = 0;
  for (const m of s.matchAll(NOT_A_CARD)) {
    yield [s.slice(from, m.index), m[0]];
    from = m.index + m[0].length;
  }
  yield [s.slice(from), ''];
}

/** Card numbers masked, but never the digits of an id, a time or an address (looked for only once a run passes Luhn). */
function maskCards(s: string): string {
  if (!hasCard(s)) return s;
  let out = '';
  for (const [part, id] of stretches(s)) out += maskRuns(part) + id;
  return out;
}

/** Whether maskCards would change `s`, without making the masked copy (the walk masks, once). */
function holdsCardOutsideIds(s: string): boolean {
  if (!hasCard(s)) return false;
  for (const [part] of stretches(s)) if (hasCard(part)) return true;
  return false;
}

const maskKeys = (s: string) => (s.includes('svc_') ? s.replace(KEY_IN_TEXT, maskSecret) : s);
const maskHeld = (s: string, held: HeldSecrets) => (held === NO_HELD_SECRETS ? s : s.replace(LONG_TOKEN, (t) => (held.holds(t) ? `…${t.slice(-4)}` : t)));
const holdsHeld = (s: string, held: HeldSecrets) => held !== NO_HELD_SECRETS && (s.match(LONG_TOKEN) ?? []).some((t) => held.holds(t));

/** A string without card numbers, keys or held secrets (a JSON string, an id, a console line, an error message). */
export const clean = (s: string, held: HeldSecrets = NO_HELD_SECRETS): string => maskCards(maskHeld(maskKeys(s), held));

/** Text that is not JSON: values of secret names too. */
function redactText(text: string, held: HeldSecrets): string {
  const named = text.replace(NAMED_VALUE, (all, name: string, sep: string, value: string) => {
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
    return isSecretName(name, value.replace(/^["']|["']$/g, '')) ? `${name}${sep}${quote}${REDACTED}${quote}` : all;
  });
  return clean(named, held);
}

/** A URL part as the server reads it: in a query or a form body `+` is a space, in a path it is a `+` (a phone's). */
const decode = (s: string, plusIsSpace = true) => {
  try {
    return decodeURIComponent(plusIsSpace ? s.replace(/\+/g, ' ') : s);
  } catch {
    return s;
  }
};
/** A URL part redacted as the text it stands for, encoded again only if something changed. */
function part(raw: string, held: HeldSecrets, plusIsSpace = true): string {
  const text = decode(raw, plusIsSpace);
  const out = redactText(text, held);
  return out === text ? raw : encodeURIComponent(out).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/** `a=1&pin=2` (a query, a form-encoded body): each name read decoded, a secret one's value redacted. */
function redactForm(text: string, held: HeldSecrets): string {
  return text.replace(/([^&=]*)=([^&]*)|[^&]+/g, (pair, name: string | undefined, value: string) =>
    name === undefined ? part(pair, held) : `${part(name, held)}=${value !== '' && isSecretName(decode(name), decode(value)) ? REDACTED : part(value, held)}`,
  );
}

/** The path with its query as sent, redacted (the request log, the console's request line). */
export function redactPath(url: string, held: HeldSecrets = NO_HELD_SECRETS): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // Most paths and queries hold no word a rule reads, no encoding, no key, no card and no held secret: kept as sent.
  if (!NAME_HINT_TEXT.test(url) && !url.includes('%') && !url.includes('svc_') && !hasCard(url) && !holdsHeld(url, held)) return url;
  const out = path.split('/').map((segment) => part(segment, held, false)).join('/');
  return q === -1 ? out : `${out}?${redactForm(url.slice(q + 1), held)}`;
}

/**
 * Whether the JSON text may hold something the walk would change. A card is looked for outside ids
 * and times, as the walk does: every created_at holds a 12-digit run (17:55:31.874003) that
 * passes Luhn one time in ten, and would send most lists to the walk.
 */
const mayHoldSecret = (text: string, held: HeldSecrets) =>
  text.includes('\\') || text.includes('svc_') || SECRET_FIELD_TEXT.test(text) || holdsCardOutsideIds(text) || holdsHeld(text, held);

/** A parsed JSON value with every secret taken out by the same rules (the dashboard's views too); `changed` says whether one was. */
export function redactValue(value: unknown, held: HeldSecrets = NO_HELD_SECRETS): { value: unknown; changed: boolean } {
  let changed = false;
  const walk = (v: unknown, field: string | null): unknown => {
    if (field !== null && v !== null && isSecretName(field, v)) return (changed = true), REDACTED;
    if (typeof v === 'string') {
      const out = clean(v, held);
      if (out !== v) changed = true;
      return out;
    }
    if (typeof v === 'number') {
      const s = String(v);
      const out = clean(s, held);
      // A number past 2^53 lost digits in the parse: what it was cannot be checked.
      const kept = out !== s ? out : Number.isInteger(v) && !Number.isSafeInteger(v) ? REDACTED : v;
      if (kept !== v) changed = true;
      return kept;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        const name = clean(k, held);
        if (name !== k) changed = true;
        return [name, walk(x, k)];
      }),
    );
  };
  return { value: walk(value, null), changed };
}

/** A parsed JSON value redacted; `text` (its source) back when nothing changed, so the layout is kept. */
function redactJson(text: string, value: unknown, held: HeldSecrets): string {
  const out = redactValue(value, held);
  return out.changed ? JSON.stringify(out.value) : text;
}

const cut = (text: string) => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…[cut at 64 KB]` : text);

/** A JSON body (an answer) as the log keeps it: redacted, cut at 64 KB; null for none. */
export function redactBody(text: string | null, held: HeldSecrets = NO_HELD_SECRETS): string | null {
  if (text === null || text === '') return null;
  return cut(mayHoldSecret(text, held) ? redactJson(text, JSON.parse(text), held) : text);
}

/**
 * A request body as sent, redacted; null for none. `parsed`: the JSON parser's value (undefined:
 * not JSON). JSON with nothing to redact keeps its layout; other text gets the text rules, unless
 * it has a backslash (an escape may spell a name the rules cannot read, `p\u0069n`): then none is kept.
 */
export function redactRequest(text: string | null, parsed: unknown, held: HeldSecrets = NO_HELD_SECRETS): string | null {
  if (text === null || text === '') return null;
  if (parsed === undefined) return text.includes('\\') ? WITHHELD : cut(/^[^\s{["]*=/.test(text) ? redactForm(text, held) : redactText(text, held));
  return cut(mayHoldSecret(text, held) ? redactJson(text, parsed, held) : text);
}

/** Text of no known shape (a webhook receiver's answer): read as JSON when it is, as text otherwise. */
export function redactAnyText(text: string | null, held: HeldSecrets = NO_HELD_SECRETS): string | null {
  let parsed: unknown;
  try {
    parsed = text === null ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return redactRequest(text, parsed, held);
}
