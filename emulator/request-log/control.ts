import type { z } from 'zod';
import { defineControl, type ControlRoute } from '../control/route.js';
import { notFound } from '../errors.js';
import type { Services } from '../services.js';
import type { RequestLogQuery } from '../../contract/control/requests.js';
import { parseMicros } from '../ids.js';
import { flushRequestLog } from './record.js';
import { REQUEST_LOG, type RequestLogRecord } from './records.js';

// GET /_emulator/requests and /_emulator/requests/{id}: the request log, newest first, paged
// like the API's lists (limit, before = the last row's `at`, next_before).

export type RequestFilter = Omit<z.output<typeof RequestLogQuery>, 'limit' | 'before'>;

const DEFAULT_LIMIT = 20;

/** The entry as the control API shows it (the record without its ms copy of `at`). */
export const toEntry = ({ at_ms: _ms, ...entry }: RequestLogRecord) => entry;

export function matchesFilter(r: RequestLogRecord, f: RequestFilter, sinceMicros?: number): boolean {
  if (f.method !== undefined && r.method !== f.method) return false;
  if (f.path !== undefined && !r.path.startsWith(f.path)) return false;
  if (f.status !== undefined) {
    if (f.status === 'succeeded' ? r.status >= 400 : f.status === 'failed' ? r.status < 400 : r.status !== Number(f.status)) return false;
  }
  if (f.environment !== undefined && r.environment !== f.environment) return false;
  if (f.key !== undefined && r.key_name !== f.key) return false;
  if (f.trace_id !== undefined && r.trace_id !== f.trace_id) return false;
  if (sinceMicros !== undefined && parseMicros(r.at) < sinceMicros) return false;
  return true;
}

export function listRequests(services: Pick<Services, 'store'>, query: z.output<typeof RequestLogQuery>) {
  flushRequestLog(services.store);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const since = query.since === undefined ? undefined : parseMicros(query.since);
  const before = query.before === undefined ? undefined : parseMicros(query.before);
  const all = [...services.store.all(REQUEST_LOG)];
  const page: RequestLogRecord[] = [];
  for (let i = all.length - 1; i >= 0 && page.length < limit; i--) {
    const r = all[i];
    if (before !== undefined && parseMicros(r.at) >= before) continue;
    if (!matchesFilter(r, query, since)) continue;
    page.push(r);
  }
  return { requests: page.map(toEntry), next_before: page.length > 0 ? page[page.length - 1].at : null };
}

export const requestLogControlRoutes: ControlRoute[] = [
  defineControl('listRequests', { handler: (s, { query }) => listRequests(s, query) }),
  defineControl('request', {
    handler: (s, { params }) => {
      flushRequestLog(s.store);
      const r = s.store.get(REQUEST_LOG, params.id);
      if (!r) throw notFound('request');
      return toEntry(r);
    },
  }),
];
