import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import type { Op } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import type { KeyRecord } from '../resources/merchants/records.js';
import { FAULT_HEADER } from '../faults/api.js';
import { IDEMPOTENCY } from '../gateway/idempotency.js';
import { REQUEST_LOG, type RequestLogRecord } from './records.js';
import { redactBody, redactValue } from './redact.js';

// Recording one /v1 request: app.ts arms `watchRequest` on each /v1 request; the entry is made
// when the answer is sent (envelope.ts's sendJson calls res.locals.onAnswer). An answer that
// never went through sendJson (a fault that cut the body or the connection) is recorded when the
// response closes.
//
// Entries are written in batches: one store transaction per event-loop turn (setImmediate) for
// the entries of that turn, with the deletes that keep the log at --request-log entries. The
// batch goes in before the next request's handler runs (oneHandlerPerTurn queues handlers on
// setImmediate too, after it), and readers flush it first (`flushRequestLog`: the control
// routes, the testing API, the dashboard), so no reader misses an answered request. A reset or
// restore drops the batch: the old world's log goes with it.

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

type AnswerHook = (status: number, body: string) => void;

/** Arms the recording of one /v1 request. */
export function watchRequest(services: Services, req: Request, res: Response, limit: number): void {
  const start = performance.now();
  let done = false;
  const record = (status: number, body: string | null) => {
    if (done) return;
    done = true;
    try {
      write(services, limit, entry(services, req, res, status, body, performance.now() - start));
    } catch (err) {
      // The log is a witness: a disk that refuses its write costs the entry, not the answer.
      services.log.warn(`request log: entry not kept (${(err as Error).message})`);
    }
  };
  (res.locals as { onAnswer?: AnswerHook }).onAnswer = record;
  res.once('close', () => record(res.statusCode, null));
}

function entry(services: Services, req: Request, res: Response, status: number, body: string | null, durationMs: number): RequestLogRecord {
  const key = res.locals.keyRecord as KeyRecord | undefined;
  const at = services.stamps.next();
  const errorCode = status >= 400 && body ? codeOf(body) : null;
  const replayed = res.getHeader('Idempotent-Replayed') === 'true';
  const fault = res.getHeader(FAULT_HEADER);
  return {
    id: `req_${at.replace(/\D/g, '')}`,
    at,
    at_ms: services.clock.now(),
    method: req.method,
    path: req.originalUrl,
    status,
    duration_ms: Math.round(durationMs * 1000) / 1000,
    key_name: key?.name ?? null,
    key_last4: key ? key.key.slice(-4) : null,
    merchant_id: key?.merchant_id ?? null,
    environment: key?.environment ?? null,
    idempotency_key: idempotencyKeyOf(req),
    idempotency: replayed ? 'replayed' : errorCode === 'IDEMPOTENCY_IN_FLIGHT' ? 'in_flight' : null,
    trace_id: res.locals.traceId as string,
    error_code: errorCode,
    fault: typeof fault === 'string' ? fault : null,
    request_body: redactValue(req.body),
    response_body: redactBody(body),
    resources: (res.locals.writes as string[] | null | undefined) ?? [],
  };
}

/** The key a route reads: one of the two headers the API uses, or a redemption's body field. */
function idempotencyKeyOf(req: Request): string | null {
  const header = req.get('X-Idempotency-Key') ?? req.get('Idempotency-Key');
  if (header !== undefined) return header;
  const field = (req.body as { idempotency_key?: unknown } | undefined)?.idempotency_key;
  return typeof field === 'string' ? field : null;
}

function codeOf(body: string): string | null {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

interface Batch {
  services: Services;
  limit: number;
  records: RequestLogRecord[];
  queued: boolean;
}
const batches = new WeakMap<Store, Batch>();

function write(services: Services, limit: number, record: RequestLogRecord): void {
  let batch = batches.get(services.store);
  if (!batch) {
    batch = { services, limit, records: [], queued: false };
    batches.set(services.store, batch);
    services.hooks.worldReplaced.push(() => void (batch!.records.length = 0));
  }
  batch.limit = limit;
  batch.records.push(record);
  if (!batch.queued) {
    batch.queued = true;
    setImmediate(flushBatch, batch);
  }
}

function flushBatch(batch: Batch): void {
  batch.queued = false;
  if (batch.records.length === 0) return;
  const records = batch.records;
  batch.records = [];
  try {
    commit(batch.services, batch.limit, records);
  } catch (err) {
    // The log is a witness: a disk that refuses its write costs the entries, not the answers.
    batch.services.log.warn(`request log: ${records.length} entr${records.length === 1 ? 'y' : 'ies'} not kept (${(err as Error).message})`);
  }
}

/** Writes the entries still waiting for their turn's batch (readers call it before reading). */
export function flushRequestLog(store: Store): void {
  const batch = batches.get(store);
  if (batch && batch.records.length > 0) flushBatch(batch);
}

function commit(services: Services, limit: number, records: RequestLogRecord[]): void {
  const { store } = services;
  store.transaction((tx) => {
    for (const record of records) tx.put(REQUEST_LOG, record);
    // Insertion order is time order: the first records are the oldest.
    let over = store.count(REQUEST_LOG) - limit;
    if (over <= 0) return;
    const drop: string[] = [];
    for (const r of store.all(REQUEST_LOG)) {
      if (over-- <= 0) break;
      drop.push(r.id);
    }
    for (const id of drop) tx.delete(REQUEST_LOG, id);
  });
}
