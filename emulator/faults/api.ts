import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import type { KeyRecord } from '../resources/merchants/records.js';
import { ApiError, type ErrorCode } from '../errors.js';
import { RateLimitedError } from '../gateway/rate-limit.js';
import { errorBody, sendJson } from '../gateway/envelope.js';
import { latencyOf, type Fault } from './set.js';
import { FAULT_HEADER } from '../../contract/faults.js';
import type { RouteTable } from '../gateway/dispatch.js';
import type { RouteDef } from '../gateway/route.js';
import { clean, redactPath } from '../../contract/redact.js';

// API faults, applied by the gateway (gateway/mount.ts) at two points of a merchant request:
//
//   before   after authentication, before idempotency and the handler: nothing is done, so a
//            retry (with any key) simply runs the request — the 429/5xx a client must retry
//   after    the handler ran and its transaction (with the idempotency record) committed, and
//            then the answer is lost: the charge went through but the merchant never heard.
//            A retry with the same key gets the original response (Idempotent-Replayed); a new
//            key makes a second resource, exactly as against a real host.
//
// Every fault that fires is named in a `Svc-Fault` response header (when a response goes out
// at all), a line in the emulator's log, and an entry in GET /_emulator/faults/log.


const STATUS_CODE: Record<number, ErrorCode> = { 429: 'RATE_LIMITED', 500: 'INTERNAL_ERROR', 502: 'BAD_GATEWAY', 503: 'SERVICE_UNAVAILABLE' };

/** The route table a request was found in, and the route it found (gateway/dispatch.ts). */
export interface Routed {
  table: RouteTable;
  route: RouteDef;
}

/**
 * Does a fault's "<METHOD> <path>" name this request? The path must match the pattern (`*`
 * matches anything, `:name` one segment), and a pattern without `*` names routes the way a
 * request does: looked up in the route table, it must find the request's own route. So
 * "GET /v1/api/payments/:id" (the :id route) never fires on /v1/api/payments/summary, which is
 * a route of its own, and "GET /v1/api/payments/pay_1" fires on that payment alone. A `*`
 * pattern stays a pattern over paths ("* /v1/api/payouts*": every payouts route).
 */
export function routeMatches(pattern: string, method: string, path: string, routed: Routed): boolean {
  const space = pattern.indexOf(' ');
  const m = pattern.slice(0, space);
  const p = pattern.slice(space + 1);
  if (m !== '*' && m !== method) return false;
  const source = p
    .split(/(\*|:[A-Za-z_]\w*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  if (!new RegExp(`^${source}$`).test(path)) return false;
  if (p.includes('*')) return true;
  try {
    return routed.table.find(method, p)?.route === routed.route;
  } catch {
    return false; // a pattern segment that does not decode names no route
  }
}

/**
 * The API fault for this request at one of the two points, if one fires (counted as fired).
 * After-commit faults are drawn only once the request succeeded and committed: a request
 * that fails validation never spends one.
 */
export function takeApiFault(services: Services, req: Request, key: KeyRecord, afterCommit: boolean, routed: Routed): Fault | undefined {
  return services.faults.take(
    (f) =>
      f.route !== undefined &&
      f.after_commit === afterCommit &&
      (f.environment === undefined || f.environment === key.environment) &&
      (f.key_name === undefined || f.key_name === key.name) &&
      routeMatches(f.route, req.method === 'HEAD' ? 'GET' : req.method, req.path, routed),
  );
}

function describe(f: Fault, latencyMs?: number): string {
  const what = f.kind === 'status' ? `status=${f.status}` : f.kind === 'latency' ? `latency=${latencyMs}ms` : f.kind;
  return `${f.id} ${f.after_commit ? 'after-commit ' : ''}${what}`;
}

function announce(services: Services, f: Fault, req: Request, res: Response, latencyMs?: number): void {
  const text = describe(f, latencyMs);
  if (!res.headersSent) res.setHeader(FAULT_HEADER, text);
  const traceId = res.locals.traceId;
  const target = `${req.method} ${redactPath(req.path, services.secrets)}`; // the fired log and the console show no secret of the path
  services.faults.record({ fault_id: f.id, kind: f.kind, target, trace_id: clean(traceId, services.secrets), after_commit: f.after_commit, detail: text });
  services.log.notice(`[fault] ${text} on ${target}${traceId ? ` (trace ${traceId})` : ''}`);
}

/**
 * Waits on the emulator's clock (the scheduler): with `--clock manual` a latency passes when time
 * is advanced. Ends early when the emulator stops (a manual clock may never reach the time).
 */
const clockDelay = (services: Services, ms: number) => services.scheduler.sleep(ms);

/** Resolves when the client goes away (a hang ends only that way). */
/** A stopping emulator cuts a held request's connection instead of waiting for the client. */
const untilClosed = (services: Services, res: Response) =>
  Promise.race([
    new Promise<void>((ok) => (res.destroyed || res.writableFinished ? ok() : res.once('close', () => ok()))),
    services.faults.released.then(() => void res.socket?.destroy()),
  ]);

function statusError(f: Fault): ApiError {
  const message = `Injected fault ${f.id}: the emulator answers ${f.status} on purpose (svc emulator faults list).`;
  return f.status === 429 ? Object.assign(new RateLimitedError(f.retry_after ?? 1), { message }) : new ApiError(STATUS_CODE[f.status!], message);
}

/**
 * Applies a before-commit fault. Returns 'continue' when the request should go on (latency),
 * 'done' when the fault answered (or refused to). A status fault throws its ApiError, which
 * the gateway sends in the envelope like any other.
 */
export async function applyBefore(services: Services, f: Fault, req: Request, res: Response): Promise<'continue' | 'done'> {
  const latency = f.kind === 'latency' ? latencyOf(f, services.faults.random(f.id)) : undefined;
  announce(services, f, req, res, latency);
  switch (f.kind) {
    case 'status':
      if (f.retry_after !== undefined) res.setHeader('Retry-After', String(f.retry_after));
      throw statusError(f);
    case 'latency':
      await clockDelay(services, latency!);
      return 'continue';
    case 'hang':
      await untilClosed(services, res);
      return 'done';
    default: // reset
      req.socket.destroy();
      return 'done';
  }
}

/** Applies an after-commit fault to the response the request produced (already kept). */
export async function applyAfter(services: Services, f: Fault, req: Request, res: Response, out: { status: number; body: string }): Promise<void> {
  const latency = f.kind === 'latency' ? latencyOf(f, services.faults.random(f.id)) : undefined;
  announce(services, f, req, res, latency);
  switch (f.kind) {
    case 'status': {
      const e = statusError(f);
      if (f.retry_after !== undefined || e instanceof RateLimitedError) res.setHeader('Retry-After', String(f.retry_after ?? 1));
      return sendJson(res, e.status, errorBody(e.code, e.message));
    }
    case 'latency':
      await clockDelay(services, latency!);
      return sendJson(res, out.status, out.body);
    case 'hang':
      return untilClosed(services, res);
    case 'truncate': {
      // The headers promise the whole body; half of it arrives, then the connection drops.
      res.statusCode = out.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(out.body));
      res.write(out.body.slice(0, Math.floor(out.body.length / 2)), () => req.socket.destroy());
      return;
    }
    default: // reset
      req.socket.destroy();
  }
}
