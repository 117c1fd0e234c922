import { isIP } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Services } from '../services.js';
import { ApiError } from '../errors.js';
import { sendError } from '../gateway/envelope.js';

// The door of every surface that is not the merchant API: the control API, the live stream,
// the hosted pages, the OpenAPI document and the dashboard. They act without a merchant key
// (or, for the stream, with one a browser cannot attach cross-site), so a web page the
// developer happens to visit must not be able to reach them:
// - Host must name this machine (a loopback name, or the address the emulator was bound to).
//   A DNS-rebinding page reaches 127.0.0.1 under its own name (Host: attacker.example), so
//   this is what stops it from reading the answers.
// - Origin, when present, must be the emulator's own (same scheme, host and port as the
//   request's Host). curl and the CLI send none; a browser always sends one on a cross-site
//   POST or fetch, and "null" (sandboxed frames, file://) is foreign too.
// - The control API refuses any Authorization header: it is never reachable with a key, and a
//   merchant integration that points at it by mistake gets a clear 403 instead of acting.

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
  /** Answer callers on the loopback interface only, even when the server listens on a LAN address. */
  loopbackPeer?: boolean;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const WILDCARDS = new Set(['0.0.0.0', '[::]']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// host, or [v6], with an optional :port
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@]+)(?::(\d{1,5}))?$/i;

const refuse = (res: Response, why: string) => sendError(res, new ApiError('FORBIDDEN', why));

/** The hostname a Host header names (lowercase, v6 in brackets), or null when it is malformed. */
export function hostName(host: string): string | null {
  const m = HOST_HEADER.exec(host.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** True when `name` (from a Host header) names this emulator. */
export function isLocalHostName(name: string, services: Services): boolean {
  if (LOOPBACK_NAMES.has(name)) return true;
  const bound = services.config.baseUrl ? new URL(services.config.baseUrl).hostname.toLowerCase() : '';
  if (name === bound) return true;
  // Bound to every interface (--host 0.0.0.0): the machine's own addresses are unknown here,
  // but an IP literal cannot be a rebinding attack (that needs a name the attacker resolves).
  return WILDCARDS.has(bound) && isIP(name.replace(/^\[|\]$/g, '')) !== 0;
}

/** Why the request's Origin is foreign, or null when it is absent or the emulator's own. */
export function foreignOrigin(origin: string | undefined, host: string): string | null {
  if (origin === undefined) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `Origin "${origin}" is not an origin this emulator serves`;
  }
  if (origin === 'null' || url.protocol !== 'http:' || url.host.toLowerCase() !== new URL(`http://${host.trim()}`).host.toLowerCase()) {
    return `Origin "${origin}" is not the emulator's own (http://${host.trim()})`;
  }
  return null;
}

/** Express middleware that lets only this machine's own callers through; see the comment above. */
export function localOnly(services: Services, options: LocalGuardOptions = {}): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (options.loopbackPeer && !LOOPBACK_PEERS.has(req.socket.remoteAddress ?? '')) {
      return refuse(res, 'This surface answers loopback callers only.');
    }
    const host = req.headers.host;
    if (host === undefined) return refuse(res, 'Refused: the request has no Host header.');
    const name = hostName(host);
    if (name === null || !isLocalHostName(name, services)) {
      return refuse(res, `Refused: Host "${host}" does not name this emulator (use localhost, 127.0.0.1 or [::1]); this blocks DNS rebinding.`);
    }
    if (options.origin !== 'unsafe-methods' || !SAFE_METHODS.has(req.method)) {
      const why = foreignOrigin(req.headers.origin, host);
      if (why) return refuse(res, `Refused: ${why}; web pages of other sites cannot call the emulator.`);
    }
    if (!options.allowAuthorization && req.headers.authorization !== undefined) {
      return refuse(res, 'The control API is not reachable with an Authorization header (a merchant API key or any other); call it without one.');
    }
    next();
  };
}
