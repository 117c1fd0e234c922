import type { z } from 'zod';
import { defineControl, type ControlRoute } from '../control/route.js';
import { notFound } from '../errors.js';
import type { RequestLogQuery } from '../../contract/control/requests.js';
import { parseMicros } from '../ids.js';
import { waitForValue } from '../store/wait.js';
import type { LoggedRequest, RequestLog } from './log.js';
import type { RequestLogEntry, RequestLogRecord } from './records.js';

// The request log as it is read: GET /_emulator/requests[/{id}] (newest first, paged like the
// API's lists: limit, before = the last row's `at`, next_before), the dashboard's Logs pages and
// the testing API's emu.requests / waitForRequest (oldest first). Filters read the fields the log
// keeps beside each entry's line; only the entries returned are parsed.

type RequestFilter = Omit<z.output<typeof RequestLogQuery>, 'limit' | 'before'>;
/** The testing API's filters: those of GET /_emulator/requests, `status` a code, 'succeeded' or 'failed'. */
export type RequestLogFilter = Partial<Omit<RequestFilter, 'status'>> & { status?: number | 'succeeded' | 'failed' };

export const toEntry = ({ at_ms: _ms, ...entry }: RequestLogRecord): RequestLogEntry => entry;

function matchesFilter(r: LoggedRequest, f: RequestFilter | RequestLogFilter, sinceMicros?: number): boolean {
  if (f.method !== undefined && r.method !== f.method) return false;
  if (f.path !== undefined && !r.path.startsWith(f.path)) return false;
  if (f.status !== undefined && (f.status === 'succeeded' ? r.status >= 400 : f.status === 'failed' ? r.status < 400 : r.status !== Number(f.status))) return false;
  if (f.environment !== undefined && r.environment !== f.environment) return false;
  if (f.key !== undefined && r.key_name !== f.key) return false;
  if (f.trace_id !== undefined && r.trace_id !== f.trace_id) return false;
  if (sinceMicros !== undefined && r.micros < sinceMicros) return false;
  return true;
}

export function listRequests(log: RequestLog, query: z.output<typeof RequestLogQuery>) {
  const since = query.since === undefined ? undefined : parseMicros(query.since);
  const before = query.before === undefined ? undefined : parseMicros(query.before);
  const page: RequestLogEntry[] = [];
  for (const r of log.newestFirst()) {
    if (page.length >= query.limit) break;
    if ((before === undefined || r.micros < before) && matchesFilter(r, query, since)) page.push(toEntry(log.read(r)));
  }
  return { requests: page, next_before: page.length > 0 ? page[page.length - 1].at : null };
}

/** Entries matching the filter, oldest first (emu.requests). */
export function requestsOf(log: RequestLog, filter: RequestLogFilter = {}): RequestLogEntry[] {
  const since = filter.since === undefined ? undefined : parseMicros(filter.since);
  if (since !== undefined && Number.isNaN(since)) throw new Error(`requests: since ${JSON.stringify(filter.since)} is not an ISO 8601 time`);
  return [...log.oldestFirst()].filter((r) => matchesFilter(r, filter, since)).map((r) => toEntry(log.read(r)));
}

/**
 * The first entry (already logged or still to come) the predicate accepts (emu.waitForRequest).
 * Waits on the log's feed of new entries, not on time; the timeout only turns a hang into an error.
 */
export function waitForRequest(log: RequestLog, predicate: (e: RequestLogEntry) => boolean, timeout: number): Promise<RequestLogEntry> {
  // Lazily: the first match ends the walk, and only the entries walked are parsed.
  const existing = { *[Symbol.iterator]() { for (const r of log.oldestFirst()) yield toEntry(log.read(r)); } };
  return waitForValue(existing, (feed) => log.onEntry((e) => feed(toEntry(log.read(e)))), predicate, timeout, 'request');
}

export const requestLogControlRoutes: ControlRoute[] = [
  defineControl('listRequests', { handler: (s, { query }) => listRequests(s.requestLog, query) }),
  defineControl('request', {
    handler: (s, { params }) => {
      const record = s.requestLog.get(params.id);
      if (!record) throw notFound('request');
      return toEntry(record);
    },
  }),
];
