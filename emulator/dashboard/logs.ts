import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html, type Html } from '../pages/html.js';
import { ApiError } from '../errors.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { envBadge, when } from './format.js';
import { listRequests, toEntry } from '../request-log/control.js';
import { DELIVERIES } from '../webhooks/records.js';
import { curlOf } from '../../contract/request-curl.js';

// The request log (request-log/): what each /v1 request sent and got back. The list takes the
// control API's filters as a GET form, and #live re-renders when the stream says a request was
// logged (client.ts), so a new request shows up without a reload. An entry's page shows both
// bodies pretty-printed, links to what it touched, and a "copy as curl" button.

const FILTERS = ['method', 'path', 'status', 'environment', 'key'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

function filtersOf(req: Request): Filters {
  const out: Filters = {};
  for (const name of FILTERS) {
    const v = req.query[name];
    if (typeof v === 'string' && v.trim() !== '') out[name] = v.trim();
  }
  return out;
}

const STATUS = /^(succeeded|failed|[1-5]\d\d)$/;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);

function listPage(services: Services, f: Filters): Html {
  const query = {
    method: f.method !== undefined && METHODS.has(f.method.toUpperCase()) ? (f.method.toUpperCase() as 'GET') : undefined,
    path: f.path?.startsWith('/') ? f.path : undefined,
    status: f.status !== undefined && STATUS.test(f.status) ? f.status : undefined,
    environment: f.environment === 'test' || f.environment === 'live' ? f.environment : undefined,
    key: f.key,
    limit: 100,
  } as Parameters<typeof listRequests>[1];
  const { requests } = listRequests(services.requestLog, query);
  const input = (name: keyof Filters, label: string, hint: string) =>
    html`<label>${label} <input name="${name}" value="${f[name] ?? ''}" placeholder="${hint}" size="14"></label> `;
  return dashboardPage(
    'Logs',
    'logs',
    html`<form method="get" action="/dashboard/logs" class="filters">${input('method', 'Method', 'POST')}${input('path', 'Path', '/v1/api/charges')}${input('status', 'Status', '422, failed')}${input('environment', 'Environment', 'test')}${input('key', 'Key', 'acme-test')}<button type="submit">Filter</button></form>
<div id="live">
${
  requests.length === 0
    ? html`<p class="muted" data-logs-none>No request matches yet.</p>`
    : html`<table data-logs><thead><tr><th>When</th><th>Request</th><th>Status</th><th>Key</th><th>Duration</th><th>Notes</th></tr></thead><tbody>
${requests.map(
  (r) => html`<tr data-request="${r.id}"><td>${when(r.at)}</td><td><a href="/dashboard/logs/${r.id}">${r.method} ${r.path}</a></td><td class="${r.status >= 400 ? 'failed' : 'ok'}">${r.status}</td><td>${r.key_name ?? '—'} ${r.environment ? envBadge(r.environment) : ''}</td><td>${r.duration_ms.toFixed(1)} ms</td><td>${[r.idempotency, r.error_code, r.fault && `fault ${r.fault}`].filter(Boolean).join(' · ')}</td></tr>`,
)}
</tbody></table>`
}
</div>`,
  );
}

const pretty = (text: string | null): string => {
  if (text === null) return '(none)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

/** Where a touched id is shown: a delivery has its own page, a record the records search. */
const linkTo = (id: string) => (id.startsWith('dlv_') ? `/dashboard/deliveries/${id}` : `/dashboard/records?q=${encodeURIComponent(id)}`);

/** What a touched id caused: an event's deliveries (the engine makes them from the event, after the request's own transaction). */
function touched(services: Services, id: string): Html {
  if (!id.startsWith('evt_')) return html`<li><a href="${linkTo(id)}"><code>${id}</code></a></li>`;
  const deliveries = services.store.byIndex(DELIVERIES, 'by_event', id);
  return html`<li><code>${id}</code> (event)${deliveries.length === 0 ? html` <span class="muted">no delivery: no endpoint subscribed</span>` : html`: ${deliveries.map((d) => html` <a href="/dashboard/deliveries/${d.id}" data-delivery><code>${d.id}</code></a> ${d.status}`)}`}</li>`;
}

function entryPage(services: Services, id: string): Html {
  const record = services.requestLog.get(id);
  if (!record) throw new ApiError('NOT_FOUND', `No request ${id} in the log (it may have aged out: --request-log, --retain-days).`);
  const e = toEntry(record);
  const rows: Array<[string, Html | string]> = [
    ['When', when(e.at)],
    ['Status', `${e.status}${e.error_code ? ` ${e.error_code}` : ''}`],
    ['Key', e.key_name ? `${e.key_name} (…${e.key_last4 ?? ''})` : '—'],
    ['Environment', e.environment ? envBadge(e.environment) : '—'],
    ['Idempotency key', e.idempotency_key ? `${e.idempotency_key}${e.idempotency ? ` (${e.idempotency.replace('_', ' ')})` : ''}` : '—'],
    ['Trace id', e.trace_id],
    ['Fault', e.fault ?? '—'],
    ['Duration', `${e.duration_ms.toFixed(1)} ms`],
  ];
  return dashboardPage(
    `${e.method} ${e.path}`,
    'logs',
    html`<p><a href="/dashboard/logs">← Logs</a></p>
<dl class="kv">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
<h2>Touched</h2>
${e.resources.length === 0 ? html`<p class="muted">Nothing was written.</p>` : html`<ul data-touched>${e.resources.map((r) => touched(services, r))}</ul>`}
<h2>Request body</h2>
<pre data-request-body>${pretty(e.request_body)}</pre>
<h2>Response body</h2>
<pre data-response-body>${pretty(e.response_body)}</pre>
<h2>As curl</h2>
<pre id="curl">${curlOf(e, services.config.baseUrl)}</pre>
<button type="button" data-copy="#curl">Copy as curl</button>
<p class="muted">The key is <code>$SVC_API_KEY</code> (export it first): the log never keeps it. Redacted values stay redacted.</p>`,
  );
}

export function mountLogs(router: Router, services: Services): void {
  router.get('/logs', (req: Request, res: Response) => sendDashboard(res, 200, listPage(services, filtersOf(req))));
  router.get('/logs/:id', (req, res) => sendDashboard(res, 200, entryPage(services, req.params.id)));
}
