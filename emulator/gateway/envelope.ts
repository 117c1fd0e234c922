import type { Response } from 'express';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { StoreWriteError, STORE_RETRY_AFTER_SECONDS } from '../store/store-write-error.js';
import { describeZodError } from '../../contract/zod-error.js';
import { watchOf } from '../request-log/record.js';
import { clean } from '../../contract/redact.js';
import { inspect } from 'node:util';

// The response envelope, once: `{success:true,data}` or `{success:false,error:{code,message}}`.

export const successBody = (data: unknown) => `{"success":true,"data":${JSON.stringify(data)}}`;
// Its code comes first: errorCodeOf (errors.ts) reads it back.
export const errorBody = (code: string, message: string) => JSON.stringify({ success: false, error: { code, message } });

export function sendJson(res: Response, status: number, body: string): void {
  // Straight to node:http rather than express's res.send, which parses and re-formats the
  // Content-Type twice per response (a visible share of a GET's CPU). Same bytes on the wire:
  // no ETag (disabled in app.ts), so no 304s; HEAD gets the headers and no body.
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (res.req.method === 'HEAD') res.end();
  else res.end(body);
  // A /v1 request's entry in the request log is made once its answer is on its way (request-log/record.ts),
  // and its route's coverage counts the answer (coverage.ts; gateway/mount.ts hands the tally).
  watchOf(res)?.answer(status, body);
  res.locals.coverage?.answered(status, body, res);
}

/** Turns anything thrown into the error envelope; unknown errors become INTERNAL_ERROR. */
export function sendError(res: Response, err: unknown): { status: number; body: string } {
  const e = toApiError(err);
  if (e.retryAfterSeconds !== undefined) res.set('Retry-After', String(e.retryAfterSeconds));
  // RFC 7235/6750: a 401 names the scheme the client should use.
  if (e.status === 401) res.set('WWW-Authenticate', 'Bearer');
  const body = errorBody(e.code, e.message);
  sendJson(res, e.status, body);
  return { status: e.status, body };
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof z.ZodError) return new ApiError('VALIDATION_ERROR', describeZodError(err));
  // The disk refused the write; it was rolled back, so the client may retry once it is fixed.
  if (err instanceof StoreWriteError) return storeRefused(err.reason);
  // Not through services.log (none reaches here), but redacted the same way by pattern: a stack may quote what it was handed.
  process.stderr.write(`[emulator] internal error: ${clean(inspect(err))}\n`);
  return new ApiError('INTERNAL_ERROR', 'The emulator hit an internal error; see its console.');
}

/** A write the disk refused (full, read-only…): 503 with Retry-After, as a rate limit's 429 has. */
const storeRefused = (reason: string) =>
  new ApiError('SERVICE_UNAVAILABLE', `The change was not kept: ${reason}. Nothing was done; retry once the disk accepts writes.`).retryAfter(STORE_RETRY_AFTER_SECONDS);

/**
 * A route that declares no query schema takes no query parameters: any it is sent is refused
 * like an unknown field (422), so every route treats unknown parameters the same way.
 */
export function refuseUnexpectedQuery(query: Record<string, unknown>): void {
  const names = Object.keys(query);
  if (names.length > 0) throw new ApiError('VALIDATION_ERROR', `query: unknown parameter${names.length > 1 ? 's' : ''} ${names.map((n) => `"${n}"`).join(', ')} (this route takes none)`);
}

