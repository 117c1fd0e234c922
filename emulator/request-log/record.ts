import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import type { Op } from '../store/memory-store.js';
import type { KeyRecord } from '../resources/merchants/records.js';
import { FAULT_HEADER } from '../faults/api.js';
import { IDEMPOTENCY } from '../gateway/idempotency.js';
import { REQUEST_LOG } from './records.js';

// Recording one /v1 request: app.ts arms `watchRequest` on each /v1 request; the entry is made
// when the answer has been handed to the socket (envelope.ts's sendJson calls
// res.locals.onAnswer). Every /v1 answer goes through sendJson, except those an injected fault
// cuts (a hang, a reset, a truncated body): a fault calls res.locals.onFault as it fires (the
// entry names it), and then the entry is made when the response closes at the latest. (A
// 'close' listener on every response cost more than the rest of the capture.)
//
// The request is captured (capture.ts: references, no text) and the log makes the entry a few
// milliseconds later, in a batch (log.ts); every reader of the log has the batch made first, so a
// client that got its answer and then asks the log finds the entry there.

/** Collections whose writes are bookkeeping, not resources the request touched. */
const NOT_RESOURCES = new Set<string>([IDEMPOTENCY.name, REQUEST_LOG.name, 'emulator_clock']);

// The ids the last committed transaction wrote, until the end of the current synchronous run
// (a microtask clears them): the gateway reads them right after its transaction commits
// (`takeWrites`), before any other transaction can commit.
let lastWrites: string[] | null = null;
let clearQueued = false;
const clearWrites = () => {
  lastWrites = null;
  clearQueued = false;
};

export function listenForWrites(services: Services): void {
  services.store.onCommit((ops: readonly Op[]) => {
    // A Set: a restore commits one transaction of every record in the world (100k records took
    // 105 s to restore with an array's includes() here).
    let ids: Set<string> | null = null;
    for (const op of ops) {
      if (NOT_RESOURCES.has(op.c)) continue;
      (ids ??= new Set()).add(op.id);
    }
    if (!ids) return;
    lastWrites = [...ids];
    if (!clearQueued) {
      clearQueued = true;
      queueMicrotask(clearWrites);
    }
  });
}

/** The ids the transaction that just committed wrote (call right after store.transaction returns). */
export function takeWrites(): string[] | null {
  const ids = lastWrites;
  lastWrites = null;
  return ids;
}

interface Hooks {
  onAnswer?: (status: number, body: string) => void;
  onFault?: () => void;
}

/** Arms the recording of one /v1 request. */
export function watchRequest(services: Services, req: Request, res: Response): void {
  const start = performance.now();
  let done = false;
  let fault: string | null = null;
  const record = (status: number, body: string | null) => {
    if (done) return;
    done = true;
    services.requestLog.capture({
      micros: services.stamps.nextMicros(),
      at_ms: services.clock.now(),
      method: req.method,
      path: req.originalUrl,
      status,
      duration_us: Math.round((performance.now() - start) * 1000),
      key: res.locals.keyRecord as KeyRecord | undefined,
      idempotency_key: idempotencyKeyOf(req),
      replayed: res.getHeader('Idempotent-Replayed') === 'true',
      trace_id: res.locals.traceId as string,
      fault,
      request: req.body,
      response: body,
      resources: (res.locals.writes as string[] | null | undefined) ?? [],
    });
  };
  const hooks = res.locals as Hooks;
  hooks.onAnswer = record;
  let armed = false;
  hooks.onFault = () => {
    // What the answer's Svc-Fault header says once the fault has set it.
    const header = res.getHeader(FAULT_HEADER);
    fault = typeof header === 'string' ? header : null;
    if (armed) return;
    armed = true;
    res.once('close', () => record(res.statusCode, null));
  };
}

/** The key a route reads: one of the two headers the API uses, or a redemption's body field. */
function idempotencyKeyOf(req: Request): string | null {
  // node keeps header names lowercased (and joins repeated ones), as req.get reads them.
  const header = req.headers['x-idempotency-key'] ?? req.headers['idempotency-key'];
  if (typeof header === 'string') return header;
  const field = (req.body as { idempotency_key?: unknown } | undefined)?.idempotency_key;
  return typeof field === 'string' ? field : null;
}
