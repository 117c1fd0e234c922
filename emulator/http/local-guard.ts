import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Services } from '../services.js';
import { errorBody, sendJson } from '../gateway/envelope.js';
import { CONTROL_TOKEN_HEADER, CONTROL_TOKEN_QUERY, GUARD_HEADER, hostIsAllowed, SESSION_COOKIE_PREFIX, type GuardReason } from '../../contract/network.js';
import { SESSION_LIFETIME_MS } from './token-door.js';

// The door of every surface that is not the merchant API: the control API, the live streams,
// the hosted pages, the OpenAPI documents and the dashboard. They act without a merchant key
// (or, for the stream, with one a browser cannot attach cross-site), so a web page the
// developer happens to visit must not be able to reach them:
// - Host must name this emulator: a loopback name, the address it was bound to, the host of
//   --public-url, or a name on the --allow-host list. A DNS-rebinding page reaches the
//   emulator under its own name (Host: attacker.example), so this is what stops it from
//   reading the answers; names are opt-in, so a compose service name works only once listed.
// - Callers that are not on this machine (a peer address that is not loopback) reach the
//   control surfaces only with the control token in the Svc-Control-Token header, or with the
//   dashboard's session cookie where its own pages use it (token-door.ts); the emulator makes a
//   token up when it binds a non-loopback address without one. Loopback callers need none.
//   A peer that sends 10 wrong tokens within a minute is answered 429 until the minute is over.
// - Origin, when present, must be exactly the emulator's own (http:// + the request's Host, or
//   the --public-url origin). curl and the CLI send none; a browser always sends one on a
//   cross-site POST or fetch, and "null" (sandboxed frames, file://) is foreign too.
// - The control API refuses any Authorization header: it is never reachable with a key, and a
//   merchant integration that points at it by mistake gets a clear 403 instead of acting.
// Every refusal carries Svc-Guard: <reason>, so the CLI can print the guard's reason and fix.

export interface LocalGuardOptions {
  /** Let requests that carry Authorization through (the stream authenticates with a merchant key). */
  allowAuthorization?: boolean;
  /**
   * 'all' (default): a foreign Origin is refused on every method. 'unsafe-methods': only on
   * requests that can change state — for the hosted pages, which a payer's browser opens by a
   * top-level navigation from anywhere (a merchant's site, a mail), but whose forms post back
   * with the emulator's own Origin.
   */
  origin?: 'all' | 'unsafe-methods';
  /** A control surface: callers that are not on this machine need the control token. */
  controlToken?: boolean;
  /**
   * Where the dashboard's session cookie stands in for the token: 'page' (the dashboard: its
   * login link GET …?token=<token> opens a session, its pages and feed take the cookie),
   * 'same-origin' (the control API: the cookie with the emulator's own Origin, which the
   * dashboard's fetches send). Absent: the token alone.
   */
  session?: 'page' | 'same-origin';
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const WILDCARDS = new Set(['0.0.0.0', '[::]']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// host, or [v6], with an optional :port
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@]+)(?::(\d{1,5}))?$/i;

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback: a caller on this machine. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

function refuse(res: Response, reason: GuardReason, status: 401 | 403, message: string): void {
  res.setHeader(GUARD_HEADER, reason);
  if (status === 401) res.setHeader('WWW-Authenticate', CONTROL_TOKEN_HEADER);
  sendJson(res, status, errorBody(status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', message));
}

/** The hostname a Host header names (lowercase, v6 in brackets), or null when it is malformed. */
export function hostName(host: string): string | null {
  const m = HOST_HEADER.exec(host.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** True when `name` (from a Host header) names this emulator. */
export function isLocalHostName(name: string, services: Services): boolean {
  const { config } = services;
  if (LOOPBACK_NAMES.has(name)) return true;
  const bound = config.listenUrl ? new URL(config.listenUrl).hostname.toLowerCase() : '';
  if (name === bound) return true;
  if (config.publicUrl && name === new URL(config.publicUrl).hostname.toLowerCase()) return true;
  if (hostIsAllowed(name, config.allowedHosts)) return true;
  // Bound to every interface (--host 0.0.0.0): the machine's own addresses are unknown here,
  // but an IP literal cannot be a rebinding attack (that needs a name the attacker resolves).
  return WILDCARDS.has(bound) && isIP(name.replace(/^\[|\]$/g, '')) !== 0;
}

/**
 * Why the request's Origin is foreign, or null when it is absent or the emulator's own. The
 * header must be an origin exactly as a browser serializes it, equal to http:// + the Host
 * header (or to the --public-url origin): no trailing dot, path, slash or userinfo, and the
 * port as the Host names it (a default port spelt out, or left out, is another origin).
 */
export function foreignOrigin(origin: string | undefined, host: string, publicUrl: string | null = null): string | null {
  if (origin === undefined) return null;
  const own = `http://${host.trim().toLowerCase()}`;
  const given = origin.toLowerCase(); // a host name's case is no part of it
  // Behind a TLS proxy the page's origin is the public URL's (https://…), not http:// + Host.
  if (given === own || (publicUrl !== null && given === new URL(publicUrl).origin)) return null;
  return `Origin "${origin}" is not the emulator's own (${own})`;
}

/** Compares in constant time (digests of equal length, whatever the lengths given). */
export function tokenMatches(given: string | undefined, expected: string | null): boolean {
  if (given === undefined || expected === null) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The value of the cookie `name` in the request, if it carries one. */
function cookie(req: Request, name: string): string | undefined {
  const cookies = req.headers.cookie;
  if (!cookies) return undefined;
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The dashboard's session cookie for the port the browser used (see SESSION_COOKIE_PREFIX). */
function sessionCookieName(host: string): string {
  return `${SESSION_COOKIE_PREFIX}${HOST_HEADER.exec(host.trim())?.[2] ?? '80'}`;
}

/**
 * Where the login link sends the browser: the same page without the token. Always a path of
 * the dashboard: a target such as /dashboard/..//evil.example/ normalizes to //evil.example/,
 * which a browser would follow to another site.
 */
function withoutToken(originalUrl: string): string {
  const url = new URL(originalUrl, 'http://x');
  url.searchParams.delete(CONTROL_TOKEN_QUERY);
  return /^\/dashboard(?:\/|$)/.test(url.pathname) ? url.pathname + url.search : '/dashboard';
}

/** The dashboard's log out: the browser's session is forgotten and its cookie cleared. */
export function endSession(services: Services, req: Request, res: Response): void {
  const name = sessionCookieName(req.headers.host ?? '');
  services.tokenDoor.closeSession(cookie(req, name));
  res.setHeader('Set-Cookie', `${name}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
}

/** Refuses a peer that sent too many wrong tokens: 429 until its window has passed. */
function throttled(res: Response, waitMs: number): void {
  const seconds = Math.ceil(waitMs / 1000);
  res.setHeader(GUARD_HEADER, 'throttle');
  res.setHeader('Retry-After', String(seconds));
  sendJson(res, 429, errorBody('RATE_LIMITED', `Refused: too many wrong control tokens from this address; try again in ${seconds} s.`));
}

/** Express middleware that lets only the emulator's own callers through; see the comment above. */
export function localOnly(services: Services, options: LocalGuardOptions = {}): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const { config } = services;
    const host = req.headers.host;
    if (host === undefined) return refuse(res, 'host', 403, 'Refused: the request has no Host header.');
    const name = hostName(host);
    if (name === null || !isLocalHostName(name, services)) {
      return refuse(
        res,
        'host',
        403,
        `Refused: Host "${host}" does not name this emulator; this blocks DNS rebinding. Use localhost, 127.0.0.1 or [::1], or start the emulator with --allow-host ${name && !name.startsWith('[') ? name : 'NAME'} (env SVC_ALLOWED_HOSTS) to accept that name.`,
      );
    }
    if (options.origin !== 'unsafe-methods' || !SAFE_METHODS.has(req.method)) {
      const why = foreignOrigin(req.headers.origin, host, config.publicUrl);
      if (why) return refuse(res, 'origin', 403, `Refused: ${why}; web pages of other sites cannot call the emulator.`);
    }
    if (options.controlToken) {
      const peer = req.socket.remoteAddress ?? '';
      const local = isLoopbackPeer(peer);
      const door = services.tokenDoor;
      const header = req.headers[CONTROL_TOKEN_HEADER.toLowerCase()];
      const queryToken = req.query[CONTROL_TOKEN_QUERY];
      // The session cookie counts where the dashboard's own pages use it: its pages and feed,
      // and the control API when the request comes from one of its pages (Origin present and
      // the emulator's own: checked above). Never in the header: it is not the token.
      const sessionCounts = options.session === 'page' || (options.session === 'same-origin' && req.headers.origin !== undefined);
      const inSession = !local && queryToken === undefined && typeof header !== 'string' && sessionCounts && door.hasSession(cookie(req, sessionCookieName(host)));
      // The throttle stops guesses, so a valid session (no guess) is never throttled: wrong tokens
      // from any web page (<img src=…?token=wrong>) share the peer address of a logged-in
      // teammate behind the same NAT, or of the teammate's own browser, and would lock them out.
      const wait = local || inSession ? 0 : door.blockedFor(peer);
      if (wait > 0) return throttled(res, wait);
      const wrongToken = (given: string) => {
        if (tokenMatches(given, config.controlToken)) return false;
        if (!local) door.failed(peer);
        return true;
      };
      if (queryToken !== undefined) {
        // The login link: the token is traded for a session (an HttpOnly cookie) and leaves the
        // address bar (and the history and Referer) at once.
        if (options.session === 'page' && req.method === 'GET' && typeof queryToken === 'string') {
          if (wrongToken(queryToken)) {
            return refuse(res, 'token', 401, 'Refused: the token in this dashboard link is not the emulator\'s control token (--control-token, SVC_CONTROL_TOKEN; printed in the ready line).');
          }
          const secure = config.publicUrl?.startsWith('https:') ? '; Secure' : '';
          const maxAge = SESSION_LIFETIME_MS / 1000;
          res.setHeader('Set-Cookie', `${sessionCookieName(host)}=${door.openSession()}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}${secure}`);
          res.setHeader('Cache-Control', 'no-store');
          res.setHeader('Referrer-Policy', 'no-referrer');
          res.redirect(303, withoutToken(req.originalUrl));
          return;
        }
        return refuse(res, 'token', 401, `Refused: a control token in the query string is accepted only by the dashboard's login link; send it in the ${CONTROL_TOKEN_HEADER} header.`);
      }
      if (!local) {
        const allowed = typeof header === 'string' ? !wrongToken(header.trim()) : inSession;
        if (!allowed) {
          return refuse(
            res,
            'token',
            401,
            config.controlToken === null
              ? 'Refused: this surface answers callers on the emulator\'s machine only; start the emulator with --control-token (env SVC_CONTROL_TOKEN) to let other hosts in.'
              : `Refused: callers from other hosts need the control token: send the ${CONTROL_TOKEN_HEADER} header (svc: --control-token or SVC_CONTROL_TOKEN), or open the dashboard once through ${config.publicUrl ?? `http://${host}`}/dashboard?token=<token>.`,
          );
        }
      }
    }
    if (!options.allowAuthorization && req.headers.authorization !== undefined) {
      return refuse(res, 'authorization', 403, 'The control API is not reachable with an Authorization header (a merchant API key or any other); call it without one.');
    }
    next();
  };
}
