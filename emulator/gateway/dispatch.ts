import type { NextFunction, Request, Response } from 'express';
import type { RouteDef } from './route.js';

// Finds the merchant route a /v1 request names, in one lookup instead of express's walk.
//
// Mounted one by one, the 24 merchant routes were 24 layers of express's router: a request
// for the twelfth ran eleven regular expressions that failed before its own matched, and the
// walk (next → match → processParams → dispatch) was the largest share of a GET's CPU that
// was neither node:http nor the handler. Here the routes are indexed by method and segment
// count; a request compares at most a handful of literal segments.
//
// The matching is express 5's (router 2 with path-to-regexp 8), so no answer changes:
//   - paths compare case-insensitively, and one trailing slash is allowed;
//   - a parameter is one non-empty segment, percent-decoded only when it holds a '%'; a
//     segment that does not decode is the router's 400 "Failed to decode param" error, which
//     app.ts turns into 404 NOT_FOUND;
//   - routes are tried in the order they are declared (summary before :id), and HEAD uses GET's;
//   - a route of another method whose path matches still decodes its params (and so throws);
//   - anything that matches no route goes on to the next layer (the 404 envelope).

interface Match {
  route: RouteDef;
  params: Record<string, string>;
}

interface Compiled {
  route: RouteDef;
  /** Upper case; a GET route also answers HEAD (express's rule). */
  method: string;
  /** Per segment: the lowercased literal, or null for a parameter. */
  literals: Array<string | null>;
  names: Array<string | null>;
}

export class RouteTable {
  /** segment count → routes of every method, in declaration order. */
  private readonly bySize = new Map<number, Compiled[]>();

  constructor(routes: RouteDef[]) {
    for (const route of routes) {
      const segments = route.path.split('/').slice(1);
      const compiled: Compiled = {
        route,
        method: route.method.toUpperCase(),
        literals: segments.map((s) => (s.startsWith(':') ? null : s.toLowerCase())),
        names: segments.map((s) => (s.startsWith(':') ? s.slice(1) : null)),
      };
      const list = this.bySize.get(segments.length) ?? [];
      list.push(compiled);
      this.bySize.set(segments.length, list);
    }
  }

  /**
   * The route for `method` and a raw pathname (no query), or undefined. Like express, a route
   * whose path matches decodes its params before its method is looked at, so a segment that
   * does not decode throws the router's 400 even when the route is for another method.
   */
  find(method: string, pathname: string): Match | undefined {
    if (pathname.charCodeAt(0) !== 47) return undefined;
    // One trailing slash is allowed ("/v1/api/payments/"), not two.
    const end = pathname.length > 1 && pathname.charCodeAt(pathname.length - 1) === 47 ? pathname.length - 1 : pathname.length;
    const segments = pathname.slice(1, end).split('/');
    const candidates = this.bySize.get(segments.length);
    if (!candidates) return undefined;
    const wanted = method === 'HEAD' ? 'GET' : method;
    outer: for (const c of candidates) {
      for (let i = 0; i < segments.length; i++) {
        const literal = c.literals[i];
        if (literal === null) {
          if (segments[i].length === 0) continue outer;
        } else if (literal.length !== segments[i].length || literal !== segments[i].toLowerCase()) continue outer;
      }
      const params: Record<string, string> = {};
      for (let i = 0; i < segments.length; i++) {
        const name = c.names[i];
        if (name !== null) params[name] = decodeParam(segments[i]);
      }
      if (c.method === wanted) return { route: c.route, params };
    }
    return undefined;
  }
}

function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    // The router's own error, so app.ts's error handler answers it exactly as before.
    throw Object.assign(new Error(`Failed to decode param '${value}'`), { status: 400, statusCode: 400 });
  }
}

/** The raw pathname of a plain origin-form target ("/v1/x?y" → "/v1/x"); undefined when parseurl should decide. */
export function pathnameOf(url: string): string | undefined {
  if (url.charCodeAt(0) !== 47) return undefined;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.includes('#') ? undefined : path;
}

/** An express middleware that hands a matched /v1 request to `handle` and passes on everything else. */
export function dispatcher(table: RouteTable, handle: (route: RouteDef, req: Request, res: Response) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    // The raw target's path, cut here for the usual origin form; parseurl (req.path) for any other.
    const pathname = pathnameOf(req.url) ?? req.path;
    let match: Match | undefined;
    try {
      match = table.find(req.method, pathname);
    } catch (err) {
      return next(err);
    }
    if (!match) return next();
    req.params = match.params;
    handle(match.route, req, res);
  };
}
