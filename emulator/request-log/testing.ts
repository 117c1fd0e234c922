import { parseMicros } from '../ids.js';
import type { Store } from '../store/store.js';
import { waitForRecord } from '../store/wait.js';
import { matchesFilter, toEntry, type RequestFilter } from './control.js';
import { flushRequestLog } from './record.js';
import { REQUEST_LOG, type RequestLogRecord } from './records.js';

// The testing API's view (src/testing/: emu.requests, emu.waitForRequest) of the request log (emulator/request-log/): what the test's code sent
// and what came back, redacted as GET /_emulator/requests shows it.

/** One entry of the request log, as GET /_emulator/requests/{id} answers it. */
export type RequestLogEntry = Omit<RequestLogRecord, 'at_ms'>;
/** The filters of GET /_emulator/requests, all optional; `status` is a code, 'succeeded' or 'failed'. */
export type RequestLogFilter = Partial<Omit<RequestFilter, 'status'>> & { status?: number | 'succeeded' | 'failed' };

const toFilter = (f: RequestLogFilter): RequestFilter => ({ ...f, status: f.status === undefined ? undefined : String(f.status) }) as RequestFilter;

/** Entries matching the filter, oldest first. */
export function requestsOf(store: Store, filter: RequestLogFilter = {}): RequestLogEntry[] {
  flushRequestLog(store);
  const f = toFilter(filter);
  const since = f.since === undefined ? undefined : parseMicros(f.since);
  if (since !== undefined && Number.isNaN(since)) throw new Error(`requests: since ${JSON.stringify(f.since)} is not an ISO 8601 time`);
  const out: RequestLogEntry[] = [];
  for (const r of store.all(REQUEST_LOG)) if (matchesFilter(r, f, since)) out.push(toEntry(r));
  return out;
}

/**
 * The first entry (already logged or still to come) the predicate accepts. Waits on the store's
 * commit feed, not on time; the timeout only turns a hang into an error.
 */
export function waitForRequest(store: Store, predicate: (e: RequestLogEntry) => boolean, timeout: number): Promise<RequestLogEntry> {
  flushRequestLog(store);
  return waitForRecord(store, REQUEST_LOG, toEntry, predicate, timeout, 'request');
}

/**
 * Writes the entries still waiting for their turn's batch (before a snapshot). Declared here,
 * not re-exported from record.ts: the package's declarations must not reach record.ts, whose
 * express types a consumer without @types/express cannot resolve.
 */
export function writePendingRequests(store: Store): void {
  flushRequestLog(store);
}
