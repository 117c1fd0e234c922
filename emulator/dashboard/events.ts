import { DELIVERIES, type DeliveryStatus } from '../webhooks/records.js';
import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html, type Html } from '../pages/html.js';
import { EVENT_TYPES } from '../../contract/common.js';
import { EVENTS } from '../resources/events/outbox.js';
import { listEvents } from '../resources/events/control.js';
import { WEBHOOK_ENDPOINTS } from '../resources/webhook-endpoints/domain.js';
import { getDelivery } from '../webhooks/deliveries.js';
import { toPublicDelivery } from '../webhooks/records.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { redactAnyText, redactBody } from '../../contract/redact.js';
import { chip, envBadge, pageParam, pager, paginate, param, when } from './format.js';

// The home page: events newest first with each endpoint's delivery status, filtered by type,
// delivery status, endpoint and environment; and one delivery with every attempt and Redeliver.
// Reads come from the functions behind the control routes (events/control.ts,
// webhooks/deliveries.ts); Redeliver posts to POST /_emulator/deliveries/:id/redeliver.

const STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'dead_letter', 'cancelled'];

const deliveriesOf = (services: Services, eventId: string) => services.store.byIndex(DELIVERIES, 'by_event', eventId);

function select(name: string, label: string, options: Array<[string, string]>, current: string | undefined): Html {
  return html`<label>${label}<select name="${name}"><option value="">Any</option>${options.map(
    ([value, text]) => html`<option value="${value}"${current === value ? html` selected` : ''}>${text}</option>`,
  )}</select></label>`;
}

function eventsPage(services: Services, req: Request): Html {
  const filter = {
    type: param(req.query.type),
    status: param(req.query.status),
    endpoint: param(req.query.endpoint),
    environment: param(req.query.environment),
  };
  const endpoints = [...services.store.all(WEBHOOK_ENDPOINTS)];
  const environment = filter.environment === 'test' || filter.environment === 'live' ? filter.environment : undefined;
  const type = (EVENT_TYPES as readonly string[]).includes(filter.type ?? '') ? (filter.type as (typeof EVENT_TYPES)[number]) : undefined;
  const all = listEvents(services, { environment, type }).events.reverse();
  const rows = all
    .map((e) => ({ event: e, deliveries: deliveriesOf(services, e.id) }))
    .filter(({ deliveries }) =>
      filter.status === undefined && filter.endpoint === undefined
        ? true
        : deliveries.some((d) => (filter.status === undefined || d.status === filter.status) && (filter.endpoint === undefined || d.endpoint_id === filter.endpoint)),
    );
  const { rows: shown, page, pages } = paginate(rows, pageParam(req.query.page));
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
  return dashboardPage(
    'Events and deliveries',
    'events',
    html`<form class="filters" method="get" action="/dashboard" aria-label="Filter events">
${select('type', 'Type', EVENT_TYPES.map((t) => [t, t]), filter.type)}
${select('status', 'Delivery status', STATUSES.map((s) => [s, s.replace('_', ' ')]), filter.status)}
${select('endpoint', 'Endpoint', endpoints.map((e) => [e.id, `${e.url} (${e.environment})`]), filter.endpoint)}
${select('environment', 'Environment', [['test', 'TEST'], ['live', 'LIVE']], filter.environment)}
<button type="submit">Filter</button>
</form>
<div id="live">
<p class="muted">${rows.length} event${rows.length === 1 ? '' : 's'}, newest first.</p>
<div class="scroll"><table class="stack" aria-label="Events">
<thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Env</th><th scope="col">Merchant</th><th scope="col">Deliveries</th></tr></thead>
<tbody>${shown.map(
      ({ event, deliveries }) => html`<tr data-event="${event.id}"><td>${when(event.created_at)}</td><td><code>${event.type}</code></td><td>${envBadge(event.environment)}</td><td><code>${event.merchant_id}</code></td><td>${
        deliveries.length === 0
          ? html`<span class="muted">no endpoint subscribed</span>`
          : deliveries.map(
              (d) => html`<div><a class="chip s-${d.status}" href="/dashboard/deliveries/${d.id}" aria-label="Delivery ${d.id} to ${urlOf.get(d.endpoint_id) ?? d.endpoint_id}: ${d.status}">${d.status.replace('_', ' ')}</a> <span class="muted">${urlOf.get(d.endpoint_id) ?? d.endpoint_id}</span></div>`,
            )
      }</td></tr>`,
    )}</tbody>
</table></div>
${pager('/dashboard', filter, page, pages)}
</div>`,
  );
}

function deliveryPage(services: Services, id: string): Html {
  const record = getDelivery(services, id);
  const d = toPublicDelivery(record, true);
  const endpoint = services.store.get(WEBHOOK_ENDPOINTS, d.endpoint_id);
  const event = services.store.get(EVENTS, d.event_id);
  const canRedeliver = d.status === 'failed' || d.status === 'dead_letter';
  return dashboardPage(
    `Delivery ${d.id}`,
    'events',
    html`<div id="live">
<dl>
<dt>Status</dt><dd>${chip(d.status)}</dd>
<dt>Event</dt><dd><code>${d.event_type}</code> <code>${d.event_id}</code> ${envBadge(d.environment)}</dd>
<dt>Endpoint</dt><dd>${endpoint?.url ?? d.endpoint_id}${endpoint?.deleted_at ? ' (deleted)' : ''}</dd>
<dt>Svc-Delivery</dt><dd><code>${d.id}</code></dd>
<dt>Attempts</dt><dd>${d.attempt_count} made, ${d.attempts_left} left in this round</dd>
<dt>Next retry</dt><dd>${when(d.next_attempt_at)}</dd>
<dt>Created</dt><dd>${when(d.created_at)}</dd>
</dl>
${
  canRedeliver
    ? html`<form method="post" action="/_emulator/deliveries/${d.id}/redeliver" data-control data-done="Redelivery queued: same Svc-Delivery ${d.id}."><button type="submit" class="small">Redeliver</button></form>`
    : ''
}
<h2>Request body</h2>
<pre>${redactBody(event?.body ?? null, services.secrets) ?? ''}</pre>
<h2>Attempts</h2>
${record.attempts.length === 0 ? html`<p class="muted">No attempt yet.</p>` : ''}
${[...(d.attempts ?? [])].reverse().map(
  (a) => html`<section class="attempt" aria-label="Attempt ${a.attempt}">
<h3>Attempt ${a.attempt}: ${a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`}</h3>
<dl>
<dt>Sent</dt><dd>${when(a.at)}</dd>
<dt>Latency</dt><dd>${a.latency_ms} ms</dd>
${a.error ? html`<dt>Error</dt><dd>${a.error}</dd>` : ''}
</dl>
${
  a.request_headers
    ? html`<details><summary>Request headers</summary><table><tbody>${Object.entries(a.request_headers).map(([k, v]) => html`<tr><th scope="row">${k}</th><td><code>${String(v)}</code></td></tr>`)}</tbody></table></details>`
    : ''
}
<details><summary>Response body (first 1 KB)</summary><pre>${redactAnyText(a.response_excerpt || null, services.secrets) ?? '(empty)'}</pre></details>
</section>`,
)}
</div>`,
  );
}

export function mountEvents(router: Router, services: Services): void {
  router.get('/', (req: Request, res: Response) => sendDashboard(res, 200, eventsPage(services, req)));
  router.get('/deliveries/:id', (req, res) => sendDashboard(res, 200, deliveryPage(services, req.params.id)));
}
