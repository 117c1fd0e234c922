import { parseMicros } from '../ids.js';
import { waitForValue } from '../store/wait.js';
import { matchesFilter, toEntry, type RequestFilter } from './control.js';
import type { RequestLog } from './log.js';
import type { RequestLogRecord } from './records.js';

// The testing API's view (src/testing/: emu.requests, emu.waitForRequest) of the request log (emulator/request-log/): what the test's code sent
// and what came back, redacted as GET /_emulator/requests shows it.

/** One entry of the request log, as GET /_emulator/requests/{id} answers it. */
export type RequestLogEntry = Omit<RequestLogRecord, 'at_ms'>;
/** The filters of GET /_emulator/requests, all optional; `status` is a code, 'succeeded' or 'failed'. */
export type RequestLogFilter = Partial<Omit<RequestFilter, 'status'>> & { status?: number | 'succeeded' | 'failed' };

const toFilter = (f: RequestLogFilter): RequestFilter => ({ ...f, status: f.status === undefined ? undefined : String(f.status) }) as RequestFilter;

/** Entries matching the filter, oldest first. */
export function requestsOf(log: RequestLog, filter: RequestLogFilter = {}): RequestLogEntry[] {
  const f = toFilter(filter);
  const since = f.since === undefined ? undefined : parseMicros(f.since);
  if (since !== undefined && Number.isNaN(since)) throw new Error(`requests: since ${JSON.stringify(f.since)} is not an ISO 8601 time`);
  const out: RequestLogEntry[] = [];
  for (const r of log.oldestFirst()) if (matchesFilter(r, f, since)) out.push(toEntry(log.read(r)));
  return out;
}

/**
 * The first entry (already logged or still to come) the predicate accepts. Waits on the log's
 * feed of new entries, not on time; the timeout only turns a hang into an error.
 */
export function waitForRequest(log: RequestLog, predicate: (e: RequestLogEntry) => boolean, timeout: number): Promise<RequestLogEntry> {
  const existing = function* () {
    for (const r of log.oldestFirst()) yield toEntry(log.read(r));
  };
  return waitForValue(existing(), (feed) => log.onEntry((e) => feed(toEntry(log.read(e)))), predicate, timeout, 'request');
}
