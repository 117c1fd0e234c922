import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html, type Html } from '../pages/html.js';
import { notFound } from '../errors.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { chip, envBadge, money, pageParam, pager, paginate, param, when } from './format.js';
import { findRecord, KINDS, type KindRecord, type RecordKind } from './record-kinds.js';
import { isRecord } from '../../contract/json-path.js';

// Money and records: one read-only table per kind (newest first, paged, filterable by
// environment and by id) and one detail view per record. Both show what the merchant API
// returns for the record (record-kinds.ts); every change to records goes through the merchant
// API or a control route, never through here.

/** Minor-unit fields, formatted with the record's currency. */
const MONEY = /^(amount|balance|total|fee)|_(cents|cap|limit|amount|total|balance|collected)$/;

interface Listed {
  item: KindRecord;
  created: string | null;
}

/** Newest first; a record with no known creation time last. */
const byCreatedDesc = (a: Listed, b: Listed) => (a.created === b.created ? 0 : a.created === null ? 1 : b.created === null ? -1 : a.created < b.created ? 1 : -1);

/** ?q=, the search box: an id or part of one (surrounding blanks of a paste ignored). */
const searchOf = (query: Record<string, unknown>) => param(typeof query.q === 'string' ? query.q.trim() : undefined);

/** ?q= matches an id when it is part of it, whatever the case. */
const idMatches = (q: string | undefined) => ({ record }: KindRecord) => q === undefined || record.id.toLowerCase().includes(q.toLowerCase());

function rowsOf(services: Services, kind: RecordKind, environment: string | undefined, q: string | undefined): Listed[] {
  return kind
    .all(services)
    .filter((item) => (environment === undefined || item.record.environment === environment) && idMatches(q)(item))
    .map((item) => ({ item, created: item.created() }))
    .sort(byCreatedDesc);
}

const detailHref = (kind: RecordKind, id: string) => `/dashboard/records/${kind.id}/${encodeURIComponent(id)}`;

/** The table of one kind; used by the records page and the wallets page. */
export function recordTable(services: Services, kind: RecordKind, query: Record<string, unknown>, path: string): Html {
  const environment = param(query.environment);
  const q = searchOf(query);
  const rows = rowsOf(services, kind, environment, q);
  const { rows: shown, page, pages } = paginate(rows, pageParam(query.page));
  return html`<div class="scroll"><table class="stack" aria-label="${kind.label}">
<thead><tr><th scope="col">ID</th><th scope="col">Status</th><th scope="col" class="num">Amount</th><th scope="col">Env</th><th scope="col">Merchant</th><th scope="col">Created</th></tr></thead>
<tbody>${shown.map(({ item: { record, summary, owner } }) => {
    const s = summary();
    return html`<tr><td><a href="${detailHref(kind, record.id)}">${record.id}</a>${s.name ? html` <span class="muted">${s.name}</span>` : ''}</td><td>${s.status ? chip(s.status) : ''}</td><td class="num">${
      s.amount === null ? (s.noAmount ?? html`<span class="muted">—</span>`) : money(s.amount, s.currency)
    }</td><td>${typeof record.environment === 'string' ? envBadge(record.environment) : ''}</td><td><code>${owner ?? ''}</code></td><td>${when(s.created)}</td></tr>`;
  })}</tbody></table></div>
${rows.length === 0 ? html`<p class="muted">${q === undefined ? 'None yet.' : html`No ${kind.label.toLowerCase()} with an id containing “${q}”.`}</p>` : ''}
${pager(path, { kind: kind.id, environment, q }, page, pages)}`;
}

/** Other kinds of the records page holding ids that contain `q`, for a search that found nothing where it looked. */
function elsewhere(services: Services, kinds: RecordKind[], current: RecordKind, q: string): Html {
  const hits = kinds.filter((k) => k !== current).map((k) => ({ k, n: k.all(services).filter(idMatches(q)).length })).filter((x) => x.n > 0);
  if (hits.length === 0) return html``;
  return html`<p>Ids containing “${q}” elsewhere: ${hits.map(({ k, n }, i) => html`${i > 0 ? ', ' : ''}<a href="${`/dashboard/records?kind=${k.id}&q=${encodeURIComponent(q)}`}">${k.label} (${n})</a>`)}</p>`;
}

function recordsPage(services: Services, req: Request): Html {
  const kinds = KINDS.filter((k) => k.section === 'records');
  const kind = kinds.find((k) => k.id === req.query.kind) ?? kinds[0]!;
  const environment = param(req.query.environment);
  const q = searchOf(req.query);
  const empty = q !== undefined && rowsOf(services, kind, environment, q).length === 0;
  return dashboardPage(
    'Money and records',
    'records',
    html`<nav class="sections" aria-label="Record kinds">${kinds.map((k) => html`<a href="/dashboard/records?kind=${k.id}"${k === kind ? html` aria-current="page"` : ''}>${k.label}</a>`)}</nav>
<form class="filters" method="get" action="/dashboard/records" role="search"><input type="hidden" name="kind" value="${kind.id}">
<label>Record id<input type="search" name="q" value="${q ?? ''}" placeholder="pl_…, pay_…, po_…" autocomplete="off" spellcheck="false"></label>
<label>Environment<select name="environment"><option value="">Any</option><option value="test"${environment === 'test' ? html` selected` : ''}>TEST</option><option value="live"${environment === 'live' ? html` selected` : ''}>LIVE</option></select></label>
<button type="submit">Show</button></form>
<div id="live"><h2>${kind.label}</h2>${recordTable(services, kind, req.query, '/dashboard/records')}${empty ? elsewhere(services, kinds, kind, q) : ''}</div>`,
  );
}

/** A value of a record's view, formatted: amounts in `currency`, times, status chips, lists of objects as tables. */
function value(key: string, v: unknown, currency: string | null, depth = 0): Html | string {
  if (v === null || v === undefined) return html`<span class="muted">—</span>`;
  if (typeof v === 'number' && MONEY.test(key)) return money(v, currency);
  if (typeof v === 'string' && /(_at|_on)$/.test(key) && /^\d{4}-\d\d-\d\dT/.test(v)) return when(v);
  if (key === 'status' && typeof v === 'string') return chip(v);
  if (key === 'environment' && typeof v === 'string') return envBadge(v);
  if (Array.isArray(v) && v.length > 0 && v.every((x): x is Record<string, unknown> => isRecord(x) && !Array.isArray(x))) return subTable(v, currency);
  if (isRecord(v) && !Array.isArray(v) && depth === 0) return fields(v, currency, depth + 1);
  if (typeof v === 'object') return html`<pre>${JSON.stringify(v, null, 2)}</pre>`;
  return String(v);
}

function fields(view: Record<string, unknown>, currency: string | null, depth = 0): Html {
  const own = typeof view.currency === 'string' ? view.currency : currency;
  return html`<dl>${Object.entries(view).map(([k, v]) => html`<dt>${k}</dt><dd>${value(k, v, own, depth)}</dd>`)}</dl>`;
}

/** A list of objects (a payroll run's lines) as a table; amounts in the parent's currency. */
function subTable(items: Record<string, unknown>[], currency: string | null): Html {
  const keys = [...new Set(items.flatMap((x) => Object.keys(x)))];
  return html`<div class="scroll"><table><thead><tr>${keys.map((k) => html`<th scope="col">${k}</th>`)}</tr></thead><tbody>${items.map(
    (x) => html`<tr>${keys.map((k) => html`<td>${value(k, x[k], typeof x.currency === 'string' ? x.currency : currency, 1)}</td>`)}</tr>`,
  )}</tbody></table></div>`;
}

function detailPage(services: Services, kindId: string, id: string): Html {
  const kind = KINDS.find((k) => k.id === kindId);
  const found = kind?.get(services, id);
  if (!kind || !found) throw notFound('record');
  const { record, owner } = found;
  const view = found.view();
  const { currency } = found.summary();
  return dashboardPage(
    `${kind.label.replace(/s$/, '')} ${id}`,
    kind.section,
    html`<p><a href="${kind.section === 'records' ? `/dashboard/records?kind=${kind.id}` : '/dashboard/wallets'}">← ${kind.label}</a></p>
<div id="live"><p>${owner ? html`Merchant <code>${owner}</code> ` : ''}${typeof record.environment === 'string' ? envBadge(record.environment) : ''}</p>
${fields(view, currency)}
${kind.id === 'payroll-runs' && record.status === 'pending_approval' ? html`<p><a href="/checkout/payroll-approval/${encodeURIComponent(id)}">Open the approval page</a></p>` : ''}
<section aria-labelledby="json-heading"><h2 id="json-heading">JSON</h2>
<p class="muted">${kind.apiAnswer ? html`What the merchant API returns for this record: <code>${kind.apiAnswer}</code>.` : 'The merchant API never returns this record: it is shown as stored, secret fields left out.'}</p>
<pre aria-label="JSON of ${id}">${JSON.stringify(view, null, 2)}</pre></section></div>`,
  );
}

export function mountRecords(router: Router, services: Services): void {
  router.get('/records', (req: Request, res: Response) => {
    // A search naming one record exactly opens it, whichever kind it is.
    const q = searchOf(req.query);
    const found = q === undefined ? undefined : findRecord(services, q);
    if (found) return res.redirect(303, detailHref(found.kind, found.found.record.id));
    sendDashboard(res, 200, recordsPage(services, req));
  });
  router.get('/records/:kind/:id', (req, res) => sendDashboard(res, 200, detailPage(services, req.params.kind, req.params.id)));
}
