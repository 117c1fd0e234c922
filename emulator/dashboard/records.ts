import type { Request, Response, Router } from 'express';
import type { AnyCollection } from '../store/collection.js';
import type { Services } from '../services.js';
import type { StoredRecord } from '../store/store.js';
import { html, type Html } from '../pages/html.js';
import { notFound } from '../errors.js';
import { PAYMENT_LINKS } from '../resources/payment-links/domain.js';
import { PAYMENTS } from '../resources/payments/domain.js';
import { MANDATES } from '../resources/mandates/domain.js';
import { PAYROLL_RUNS } from '../resources/payroll/domain.js';
import { PAYOUTS } from '../resources/payouts/domain.js';
import { MERCHANTS } from '../resources/merchants/records.js';
import { GIFT_CARD_WALLETS } from '../resources/gift-cards/domain.js';
import { FLEET_CARDS } from '../resources/fleet-cards/domain.js';
import { dashboardPage, sendDashboard, type Section } from './layout.js';
import { chip, envBadge, money, newestFirst, pageParam, pager, paginate, param, when } from './format.js';

// Money and records: one read-only table (newest first, paged, filterable by environment) and
// one detail view per kind. Records are shown as stored, minus anything secret-shaped; every
// change to them goes through the merchant API or a control route, never through here.

type Row = StoredRecord & Record<string, unknown> & { created_at: string };

export interface RecordKind {
  id: string;
  label: string;
  section: Section;
  collection: AnyCollection;
  filter?: (r: Row) => boolean;
}

export const KINDS: RecordKind[] = [
  { id: 'payment-links', label: 'Payment links', section: 'records', collection: PAYMENT_LINKS },
  { id: 'payments', label: 'Payments', section: 'records', collection: PAYMENTS, filter: (r) => !r.mandate_id },
  { id: 'mandates', label: 'Mandates', section: 'records', collection: MANDATES },
  { id: 'charges', label: 'Charges', section: 'records', collection: PAYMENTS, filter: (r) => Boolean(r.mandate_id) },
  { id: 'payroll-runs', label: 'Payroll runs', section: 'records', collection: PAYROLL_RUNS },
  { id: 'payouts', label: 'Payouts', section: 'records', collection: PAYOUTS },
  { id: 'sub-merchants', label: 'Sub-merchants', section: 'records', collection: MERCHANTS, filter: (r) => typeof r.parent_id === 'string' },
  { id: 'gift-card-wallets', label: 'Gift-card wallets', section: 'wallets', collection: GIFT_CARD_WALLETS },
  { id: 'fleet-cards', label: 'Fleet cards', section: 'wallets', collection: FLEET_CARDS },
];

/** Never shown, whatever the record holds. */
const HIDDEN = /secret|pin|token|hash|password|cvc/i;
/** Minor-unit fields, formatted with the record's currency. */
const MONEY = /^(amount|balance|total|fee)|_(cents|cap|amount|total|balance)$/;

function rowsOf(services: Services, kind: RecordKind, environment: string | undefined): Row[] {
  const all = [...services.store.all<Row>(kind.collection)];
  return newestFirst(all.filter((r) => (kind.filter?.(r) ?? true) && (environment === undefined || r.environment === environment)));
}

function value(key: string, v: unknown, record: Record<string, unknown>): Html | string {
  if (v === null || v === undefined) return html`<span class="muted">—</span>`;
  if (typeof v === 'number' && MONEY.test(key)) return money(v, record.currency);
  if (typeof v === 'string' && /(_at|_on)$/.test(key) && /^\d{4}-\d\d-\d\dT/.test(v)) return when(v);
  if (key === 'status' && typeof v === 'string') return chip(v);
  if (key === 'environment' && typeof v === 'string') return envBadge(v);
  if (Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) return subTable(v as Record<string, unknown>[], record);
  if (typeof v === 'object') return html`<pre>${JSON.stringify(v, (k, inner) => (HIDDEN.test(k) ? undefined : inner), 2)}</pre>`;
  return String(v);
}

/** A list of objects (a payroll run's lines) as a table; amounts use the parent's currency. */
function subTable(items: Record<string, unknown>[], parent: Record<string, unknown>): Html {
  const keys = [...new Set(items.flatMap((x) => Object.keys(x)))].filter((k) => !HIDDEN.test(k));
  return html`<div class="scroll"><table><thead><tr>${keys.map((k) => html`<th scope="col">${k}</th>`)}</tr></thead><tbody>${items.map(
    (x) => html`<tr>${keys.map((k) => html`<td>${value(k, x[k], { currency: parent.currency, ...x })}</td>`)}</tr>`,
  )}</tbody></table></div>`;
}

const amountOf = (r: Row) => {
  const key = ['amount', 'amount_cents', 'balance', 'total_amount', 'max_amount_cents'].find((k) => typeof r[k] === 'number');
  return key ? money(r[key], r.currency) : '—';
};

/** The table of one kind; used by the records page and the wallets page. */
export function recordTable(services: Services, kind: RecordKind, query: Record<string, unknown>, path: string): Html {
  const environment = param(query.environment);
  const rows = rowsOf(services, kind, environment);
  const { rows: shown, page, pages } = paginate(rows, pageParam(query.page));
  return html`<div class="scroll"><table class="stack" aria-label="${kind.label}">
<thead><tr><th scope="col">ID</th><th scope="col">Status</th><th scope="col" class="num">Amount</th><th scope="col">Env</th><th scope="col">Merchant</th><th scope="col">Created</th></tr></thead>
<tbody>${shown.map(
    (r) => html`<tr><td><a href="/dashboard/records/${kind.id}/${r.id}">${r.id}</a>${typeof r.name === 'string' ? html` <span class="muted">${r.name}</span>` : typeof r.title === 'string' ? html` <span class="muted">${r.title}</span>` : ''}</td><td>${
      typeof r.status === 'string' ? chip(r.status) : ''
    }</td><td class="num">${amountOf(r)}</td><td>${typeof r.environment === 'string' ? envBadge(r.environment) : ''}</td><td><code>${String(r.merchant_id ?? r.parent_id ?? '')}</code></td><td>${when(r.created_at)}</td></tr>`,
  )}</tbody></table></div>
${rows.length === 0 ? html`<p class="muted">None yet.</p>` : ''}
${pager(path, { kind: kind.id, environment }, page, pages)}`;
}

function recordsPage(services: Services, req: Request) {
  const kinds = KINDS.filter((k) => k.section === 'records');
  const kind = kinds.find((k) => k.id === req.query.kind) ?? kinds[0];
  const environment = param(req.query.environment);
  return dashboardPage(
    'Money and records',
    'records',
    html`<nav class="sections" aria-label="Record kinds">${kinds.map((k) => html`<a href="/dashboard/records?kind=${k.id}"${k === kind ? html` aria-current="page"` : ''}>${k.label}</a>`)}</nav>
<form class="filters" method="get" action="/dashboard/records"><input type="hidden" name="kind" value="${kind.id}">
<label>Environment<select name="environment"><option value="">Any</option><option value="test"${environment === 'test' ? html` selected` : ''}>TEST</option><option value="live"${environment === 'live' ? html` selected` : ''}>LIVE</option></select></label>
<button type="submit">Show</button></form>
<div id="live"><h2>${kind.label}</h2>${recordTable(services, kind, req.query, '/dashboard/records')}</div>`,
  );
}

function detailPage(services: Services, kindId: string, id: string) {
  const kind = KINDS.find((k) => k.id === kindId);
  const record = kind ? services.store.get<Row>(kind.collection, id) : undefined;
  if (!kind || !record || !(kind.filter?.(record) ?? true)) throw notFound('record');
  const entries = Object.entries(record).filter(([k]) => !HIDDEN.test(k));
  return dashboardPage(
    `${kind.label.replace(/s$/, '')} ${id}`,
    kind.section,
    html`<p><a href="${kind.section === 'records' ? `/dashboard/records?kind=${kind.id}` : '/dashboard/wallets'}">← ${kind.label}</a></p>
<div id="live"><dl>${entries.map(([k, v]) => html`<dt>${k}</dt><dd>${value(k, v, record)}</dd>`)}</dl>
${kind.id === 'payroll-runs' && record.status === 'pending_approval' ? html`<p><a href="/checkout/payroll-approval/${id}">Open the approval page</a></p>` : ''}</div>`,
  );
}

export function mountRecords(router: Router, services: Services): void {
  router.get('/records', (req: Request, res: Response) => sendDashboard(res, 200, recordsPage(services, req)));
  router.get('/records/:kind/:id', (req: Request, res: Response) => sendDashboard(res, 200, detailPage(services, req.params.kind as string, req.params.id as string)));
}
