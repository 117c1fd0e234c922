import type { z } from 'zod';
import { defineControl, type ControlRoute } from '../control/route.js';
import { notFound } from '../errors.js';
import type { Services } from '../services.js';
import type { RequestLogQuery } from '../../contract/control/requests.js';
import { parseMicros } from '../ids.js';
import type { LoggedRequest, RequestLog } from './log.js';
import type { RequestLogRecord } from './records.js';

// GET /_emulator/requests and /_emulator/requests/{id}: the request log, newest first, paged
// like the API's lists (limit, before = the last row's `at`, next_before). Filters read the
// few fields the log keeps beside each entry's text; only the entries of the page are parsed.

export type RequestFilter = Omit<z.output<typeof RequestLogQuery>, 'limit' | 'before'>;

const DEFAULT_LIMIT = 20;

/** The entry as the control API shows it (the record without its ms copy of `at`). */
export const toEntry = ({ at_ms: _ms, ...entry }: RequestLogRecord) => entry;

export function matchesFilter(r: LoggedRequest, f: RequestFilter, sinceMicros?: number): boolean {
  if (f.method !== undefined && r.method !== f.method) return false;
  if (f.path !== undefined && !r.path.startsWith(f.path)) return false;
  if (f.status !== undefined) {
    if (f.status === 'succeeded' ? r.status >= 400 : f.status === 'failed' ? r.status < 400 : r.status !== Number(f.status)) return false;
  }
  if (f.environment !== undefined && r.environment !== f.environment) return false;
  if (f.key !== undefined && r.key_name !== f.key) return false;
  if (f.trace_id !== undefined && r.trace_id !== f.trace_id) return false;
  if (sinceMicros !== undefined && r.micros < sinceMicros) return false;
  return true;
}

export function listRequests(log: RequestLog, query: z.output<typeof RequestLogQuery>) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const since = query.since === undefined ? undefined : parseMicros(query.since);
  const before = query.before === undefined ? undefined : parseMicros(query.before);
  const page: RequestLogRecord[] = [];
  for (const r of log.newestFirst()) {
    if (page.length >= limit) break;
    if (before !== undefined && r.micros >= before) continue;
    if (!matchesFilter(r, query, since)) continue;
    page.push(log.read(r));
  }
  return { requests: page.map(toEntry), next_before: page.length > 0 ? page[page.length - 1].at : null };
}

/** One entry by id, or 404. */
export function requestById(log: RequestLog, id: string) {
  const r = log.get(id);
  if (!r) throw notFound('request');
  return toEntry(r);
}

export const requestLogControlRoutes: ControlRoute[] = [
  defineControl('listRequests', { handler: (s: Services, { query }) => listRequests(s.requestLog, query) }),
  defineControl('request', { handler: (s: Services, { params }) => requestById(s.requestLog, params.id) }),
];
