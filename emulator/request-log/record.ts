import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import type { Op } from '../store/memory-store.js';
import { FAULT_HEADER } from '../../contract/faults.js';
import { IDEMPOTENCY } from '../gateway/idempotency.js';
import { CLOCK_STATE } from '../scheduler/clock-record.js';
import { formatMicros } from '../ids.js';
import { errorCodeOf } from '../errors.js';
import { clean, redactBody, redactPath, redactRequest } from '../../contract/redact.js';
import type { RequestLogRecord } from './records.js';

// Recording one /v1 request. Its watch is the gateway's (res.locals.requestLog): app.ts arms it on
// each /v1 request (unless --request-log 0) and hands it the body as it arrived (the JSON parser's
// verify hook); the gateway hands it what the request's transaction wrote (the transaction returns
// its writes) and, while faults are set, has the response's close end it (a fault may cut the
// answer). The entry is made in one place, `answer`, once sendJson has sent the answer; redacted then.

const NOT_RESOURCES = new Set<string>([IDEMPOTENCY.name, CLOCK_STATE.name]); // bookkeeping, not what the request touched

export class RequestWatch {
  private readonly start = performance.now();
  private body: string | null = null;
  private done = false;
  /** What the request's transaction wrote (the gateway sets it once the transaction committed). */
  writes: readonly Op[] = [];

  constructor(
    private readonly services: Services,
    private readonly req: Request,
    private readonly res: Response,
  ) {}

  /** The request's body as it arrived (express.json's verify hook, before the parse). */
  received(body: Buffer, encoding: string): void {
    // The text now, not the buffer: it may be a slice of a much larger one (the socket's reads).
    this.body = /^utf-?8$/i.test(encoding) ? body.toString('utf8') : new TextDecoder(encoding).decode(body);
  }

  /** Faults are set: one may cut the answer, and then the entry is made when the response closes. */
  closeWithFaults(): void {
    this.res.once('close', () => this.answer(this.res.statusCode, null));
  }

  /** The answer went out (`body`; null when a fault cut it): the entry is made, redacted, and kept. */
  answer(status: number, body: string | null): void {
    if (this.done) return;
    this.done = true;
    const { services, req, res } = this;
    const key = res.locals.keyRecord;
    const micros = services.stamps.nextMicros();
    const at = formatMicros(micros);
    const errorCode = status >= 400 ? errorCodeOf(body) : null;
    const idempotencyKey = idempotencyKeyOf(req);
    const fault = res.getHeader(FAULT_HEADER);
    const traceId = res.locals.traceId;
    const record: RequestLogRecord = {
      id: `req_${at.replace(/\D/g, '')}`,
      at,
      at_ms: services.clock.now(),
      method: req.method,
      path: redactPath(req.originalUrl, services.secrets),
      status,
      duration_ms: Math.round((performance.now() - this.start) * 1000) / 1000,
      key_name: key?.name ?? null,
      key_last4: key ? key.key.slice(-4) : null,
      merchant_id: key?.merchant_id ?? null,
      environment: key?.environment ?? null,
      idempotency_key: idempotencyKey === null ? null : clean(idempotencyKey, services.secrets),
      idempotency: res.getHeader('Idempotent-Replayed') === 'true' ? 'replayed' : errorCode === 'IDEMPOTENCY_IN_FLIGHT' ? 'in_flight' : null,
      // Only a trace id the client sent can hold a secret (one app.ts made is kept as it is).
      trace_id: req.headers['x-trace-id'] === traceId ? clean(traceId, services.secrets) : traceId,
      error_code: errorCode,
      fault: typeof fault === 'string' ? fault : null,
      request_body: redactRequest(this.body, req.body, services.secrets),
      response_body: redactBody(body, services.secrets),
      // The ids written, once each (a Set: a transaction may write 100k records).
      resources: this.writes.length === 0 ? [] : [...new Set(this.writes.filter((op) => !NOT_RESOURCES.has(op.c)).map((op) => op.id))],
    };
    services.requestLog.add(record, micros);
  }
}

/** Arms the recording of one /v1 request (app.ts). */
export function watchRequest(services: Services, req: Request, res: Response): void {
  res.locals.requestLog = new RequestWatch(services, req, res);
}

/** The request's watch, if it is recorded (for the gateway and the body parser). */
export const watchOf = (res: Response): RequestWatch | undefined => res.locals.requestLog;

/** The key a route reads: one of the two headers the API uses, or a redemption's body field. */
function idempotencyKeyOf(req: Request): string | null {
  // node keeps header names lowercased (and joins repeated ones), as req.get reads them.
  const header = req.headers['x-idempotency-key'] ?? req.headers['idempotency-key'];
  if (typeof header === 'string') return header;
  const body: unknown = req.body;
  return body !== null && typeof body === 'object' && 'idempotency_key' in body && typeof body.idempotency_key === 'string' ? body.idempotency_key : null;
}
