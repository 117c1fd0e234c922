import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import type { Op } from '../store/memory-store.js';
import type { KeyRecord } from '../resources/merchants/records.js';
import { FAULT_HEADER } from '../faults/api.js';
import type { AnswerWatch } from './answer-watch.js';

// Recording one /v1 request: app.ts arms `watchRequest` on each /v1 request; the entry is made
// when the answer has been handed to the socket (envelope.ts's sendJson calls the response's
// watch, res.locals.requestLog: answer-watch.ts). Every /v1 answer goes through sendJson,
// except those an injected fault cuts (a hang, a reset, a truncated body): a fault calls the
// watch's `faulted` as it fires (the entry names it), and then the entry is made when the
// response closes at the latest. (A 'close' listener on every response cost more than the rest of the capture.)
//
// The request is captured (capture.ts: references and the texts it already had, nothing redacted) and the log makes the entry a few
// milliseconds later, in a batch (log.ts); every reader of the log has the batch made first, so a
// client that got its answer and then asks the log finds the entry there.

// What the last committed transaction wrote: the gateway takes it right after its own
// transaction commits (`takeWrites`), before any other can, and the entry's `resources` are made
// from it later, in the log's batch (capture.ts). Only a reference is kept here: a restore commits
// every record of the world in one transaction, and a commit must cost the log nothing.
const NO_WRITES: readonly Op[] = [];
let lastWrites: readonly Op[] = NO_WRITES;

export function listenForWrites(services: Services): void {
  // --request-log 0: nothing is recorded, nothing to follow.
  if (services.config.requestLog === 0) return;
  services.store.onCommit((ops: readonly Op[]) => {
    lastWrites = ops;
  });
}

/** What the transaction that just committed wrote (call right after store.transaction returns). */
export function takeWrites(): readonly Op[] {
  const ops = lastWrites;
  lastWrites = NO_WRITES;
  return ops;
}

/** Arms the recording of one /v1 request (`traceId`: the one app.ts gave it). */
export function watchRequest(services: Services, req: Request, res: Response, headers: IncomingHttpHeaders, traceId: string): void {
  res.locals.requestLog = new Watch(services, req, res, headers, traceId);
}

// One object a request (res.locals.requestLog: answer-watch.ts), not two closures.
class Watch implements AnswerWatch {
  private readonly start = performance.now();
  private done = false;
  private fault: string | null = null;
  private armed = false;
  private writes: readonly Op[] = NO_WRITES;
  private body: string | null = null;
  private replay = false;

  constructor(
    private readonly services: Services,
    private readonly req: Request,
    private readonly res: Response,
    private readonly headers: IncomingHttpHeaders,
    private readonly traceId: string,
  ) {}

  received(body: Buffer, encoding: string): void {
    // The text now, not the buffer: it may be a slice of a much larger one (the socket's reads).
    this.body = /^utf-?8$/i.test(encoding) ? body.toString('utf8') : new TextDecoder(encoding).decode(body);
  }

  replayed(): void {
    this.replay = true;
  }

  wrote(writes: readonly Op[]): void {
    this.writes = writes;
  }

  answer(status: number, body: string | null): void {
    if (this.done) return;
    this.done = true;
    const { services, req, res } = this;
    const idempotencyKey = idempotencyKeyOf(this.headers, req.body);
    services.requestLog.capture({
      micros: services.stamps.nextMicros(),
      at_ms: services.clock.now(),
      method: req.method,
      path: req.originalUrl,
      status,
      duration_us: Math.round((performance.now() - this.start) * 1000),
      key: res.locals.keyRecord as KeyRecord | undefined,
      idempotency_key: idempotencyKey,
      replayed: this.replay,
      trace_id: this.traceId,
      fault: this.fault,
      request: this.body,
      response: body,
      writes: this.writes,
    });
  }

  /** A fault fired: the entry names it (the answer's Svc-Fault header), and is made at close if the fault cut the answer. */
  faulted(): void {
    const header = this.res.getHeader(FAULT_HEADER);
    this.fault = typeof header === 'string' ? header : null;
    if (this.armed) return;
    this.armed = true;
    this.res.once('close', () => this.answer(this.res.statusCode, null));
  }
}

/** The key a route reads: one of the two headers the API uses, or a redemption's body field. */
function idempotencyKeyOf(headers: IncomingHttpHeaders, body: unknown): string | null {
  // node keeps header names lowercased (and joins repeated ones), as req.get reads them.
  const header = headers['x-idempotency-key'] ?? headers['idempotency-key'];
  if (typeof header === 'string') return header;
  const field = (body as { idempotency_key?: unknown } | undefined)?.idempotency_key;
  return typeof field === 'string' ? field : null;
}
