// Who may reach an emulator that other machines can reach: the names it answers to
// (--allow-host), the base of the URLs it hands out (--public-url) and the token its control
// surfaces ask of callers that are not on this machine (--control-token). The CLI checks its
// flags with these functions and the emulator checks its options with the same ones, so a
// value is refused the same way on both sides. Plain functions, no zod: the CLI's start-up
// reads this file.

/** The header a caller that is not on the emulator's machine sends the control token in. */
export const CONTROL_TOKEN_HEADER = 'Svc-Control-Token';
/**
 * The dashboard's session cookie, set by its login link ({public_url}/dashboard?token=…), is
 * this followed by the port the browser used: browsers send a host's cookies to every port of
 * it, so two emulators on one host name keep their own sessions.
 */
export const SESSION_COOKIE_PREFIX = 'svc_session_';
/** The query parameter of the dashboard's login link (and nowhere else). */
export const CONTROL_TOKEN_QUERY = 'token';
/** Set on every answer of the door guard, so a client tells a refusal from a route's own error. */
export const GUARD_HEADER = 'Svc-Guard';
/**
 * On every merchant API answer of an emulator: the base of its checkout pages ({public_url}/checkout).
 * The API itself never names a link's payer URL; with this the CLI names it for an emulator it
 * reaches by another name (a compose service) as the emulator hands it out.
 */
export const CHECKOUT_URL_HEADER = 'Svc-Checkout-Url';
export type GuardReason = 'host' | 'origin' | 'authorization' | 'token' | 'throttle';

// A DNS name (labels of letters, digits, '-' and '_'), an IPv4 literal, or [IPv6].
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;
// Token characters: what survives a header, a cookie and a URL query unescaped, and what a
// generated token (base64url) is made of.
const TOKEN = /^[A-Za-z0-9_-]{32,256}$/;
/** A token guessable by hand (aaaa…, 0123…) is refused: it must use this many different characters. */
const TOKEN_DISTINCT = 10;
export const CONTROL_TOKEN_RULE = `at least 32 (at most 256) characters of A-Z, a-z, 0-9, "_" and "-", with at least ${TOKEN_DISTINCT} different characters`;

/**
 * One --allow-host value, normalized (lowercase): `svc`, `app.internal`, `.example.test` (that
 * domain and every subdomain), an IP literal, or `*` (any name: DNS rebinding protection off).
 * Throws an Error whose message says what is wrong; the caller names the flag.
 */
export function parseAllowedHost(raw: string): string {
  const value = raw.trim().toLowerCase();
  if (value === '') throw new Error('is empty (give a host name such as svc, or .example.test for a domain and its subdomains)');
  if (value === '*') return value;
  if (/[:/@?#\s]/.test(value) && !IPV6.test(value)) {
    throw new Error(`"${raw}" is not a host name: give the name alone, without a scheme, port or path (e.g. svc, not http://svc:4242)`);
  }
  if (IPV6.test(value)) return value;
  const name = value.startsWith('.') ? value.slice(1) : value;
  if (name.length > 253 || !name.split('.').every((l) => LABEL.test(l))) {
    throw new Error(`"${raw}" is not a host name (letters, digits, '-' and '_' in dot-separated labels; a leading dot allows subdomains)`);
  }
  return value;
}

/** A comma-separated list (SVC_ALLOWED_HOSTS) of --allow-host values. */
export function parseAllowedHostList(raw: string): string[] {
  return raw.split(',').filter((s) => s.trim() !== '').map(parseAllowedHost);
}

/** The loopback names a plain http:// webhook URL may use in either environment (a URL's hostname: lowercase, v6 in brackets). */
export const isLoopbackHost = (name: string): boolean => name === 'localhost' || name === '127.0.0.1' || name === '[::1]';

/** True when the Host header's name (lowercase, v6 in brackets) is on the allow list. */
export function hostIsAllowed(name: string, allowed: readonly string[]): boolean {
  for (const entry of allowed) {
    if (entry === '*' || entry === name) return true;
    if (entry.startsWith('.') && (name === entry.slice(1) || name.endsWith(entry))) return true;
  }
  return false;
}

/** --public-url: an http(s) URL with no credentials, query or fragment; returned without a trailing slash. */
export function parsePublicUrl(raw: string): string {
  if (!URL.canParse(raw.trim())) throw new Error(`"${raw}" is not an absolute URL (e.g. http://svc:4242 or https://svc.dev.example.com)`);
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${raw}" must be http:// or https://`);
  if (url.username || url.password) throw new Error(`"${raw}" must not carry credentials`);
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) throw new Error(`"${raw}" must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * --control-token and SVC_CONTROL_TOKEN: the one rule (CONTROL_TOKEN_RULE) the CLI and the
 * emulator both check. A generated one (svc_ctl_ + 24 random bytes) is 192 bits.
 */
export function parseControlToken(raw: string): string {
  if (raw === '') throw new Error(`is empty; it must be ${CONTROL_TOKEN_RULE}`);
  if (!TOKEN.test(raw)) throw new Error(`must be ${CONTROL_TOKEN_RULE} (this one is ${raw.length} characters${/[^A-Za-z0-9_-]/.test(raw) ? ', some of them not allowed' : ''})`);
  const distinct = new Set(raw).size;
  if (distinct < TOKEN_DISTINCT) throw new Error(`must be ${CONTROL_TOKEN_RULE} (this one has ${distinct})`);
  return raw;
}
