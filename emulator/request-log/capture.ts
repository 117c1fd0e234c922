import type { KeyRecord } from '../resources/merchants/records.js';
import type { Op } from '../store/memory-store.js';
import { IDEMPOTENCY } from '../gateway/idempotency.js';
import { CLOCK_STATE } from '../scheduler/clock-record.js';
import { REQUEST_LOG } from './records.js';
import { redactBody, redactRequest } from './redact.js';
import { entryText, type EntryText } from './entry-text.js';

// What the request log takes from an answered request (record.ts) before it is an entry:
// references and the texts the request already had (its body as it arrived, the answer as sent),
// nothing redacted or encoded yet. The log turns a batch of them into entries shortly after
// (log.ts): redaction and encoding run then, many at a time, off the request's own path. A
// capture lives a few milliseconds; nothing of it is kept.

export interface Captured {
  /** The entry's stamp (`at`), µs since the epoch. */
  micros: number;
  at_ms: number;
  method: string;
  path: string;
  status: number;
  /** Real time spent answering, in whole µs. */
  duration_us: number;
  key: KeyRecord | undefined;
  idempotency_key: string | null;
  replayed: boolean;
  trace_id: string;
  fault: string | null;
  /** The request body as it was sent (JSON text, or text that failed to parse), redacted when the entry is made; null for none. */
  request: string | null;
  /** The answer's body as sent; null when it was cut (a fault). */
  response: string | null;
  /** What the request's transaction wrote (the gateway's takeWrites); the entry's `resources` are made from it. */
  writes: readonly Op[];
}

/** Collections whose writes are bookkeeping, not resources the request touched. */
const NOT_RESOURCES = new Set<string>([IDEMPOTENCY.name, REQUEST_LOG.name, CLOCK_STATE.name]);

/** The ids written, once each (a Set: a transaction may write 100k records). */
function resourcesOf(writes: readonly Op[]): string[] {
  if (writes.length === 0) return [];
  const ids = new Set<string>();
  for (const op of writes) if (!NOT_RESOURCES.has(op.c)) ids.add(op.id);
  return [...ids];
}

/** The entry of a captured request as text, its bodies redacted. */
export function capturedText(c: Captured): EntryText {
  const errorCode = c.status >= 400 && c.response ? codeOf(c.response) : null;
  return entryText(
    {
      id: null,
      at: null,
      micros: c.micros,
      at_ms: c.at_ms,
      method: c.method,
      path: c.path,
      status: c.status,
      duration_us: c.duration_us,
      key_name: c.key?.name ?? null,
      key_last4: c.key ? c.key.key.slice(-4) : null,
      merchant_id: c.key?.merchant_id ?? null,
      environment: c.key?.environment ?? null,
      idempotency_key: c.idempotency_key,
      idempotency: c.replayed ? 'replayed' : errorCode === 'IDEMPOTENCY_IN_FLIGHT' ? 'in_flight' : null,
      trace_id: c.trace_id,
      error_code: errorCode,
      fault: c.fault,
      resources: resourcesOf(c.writes),
    },
    redactRequest(c.request),
    redactBody(c.response),
  );
}

function codeOf(body: string): string | null {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}
