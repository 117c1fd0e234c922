import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { html } from '../pages/html.js';
import { normalizePhone } from '../resources/users/phone.js';
import { inbox, OTP_INBOX } from '../resources/sub-merchants/otp.js';
import { PAYEES, type PayeeRecord } from '../resources/payees/domain.js';
import { PAYROLL_RUNS } from '../resources/payroll/domain.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { chip, envBadge, money, newestFirst, param, when } from './format.js';

// What the spec puts on the owner's phone: payee approval and cap changes with the owner's
// PIN (forms posting to /_emulator/payees/:id/approve and /caps), payroll runs waiting for
// approval (linking to their hosted approval page), and the OTP inbox per phone.

function payeeActions(p: PayeeRecord) {
  if (p.status === 'pending_approval') {
    return html`<form class="inline" method="post" action="/_emulator/payees/${p.id}/approve" data-control data-done="Payee ${p.name} approved.">
<label>Owner PIN<input name="pin" type="password" inputmode="numeric" autocomplete="off" required aria-label="Owner PIN for ${p.name}"></label>
<button type="submit">Approve ${p.name}</button></form>`;
  }
  if (p.status === 'approved') {
    return html`<form class="inline" method="post" action="/_emulator/payees/${p.id}/caps" data-control data-done="Caps of ${p.name} changed.">
<label>Per payout (minor units)<input name="per_payout_cap" type="number" min="0" step="1" data-type="int" aria-label="Per-payout cap of ${p.name}, minor units"></label>
<label>Daily (minor units)<input name="daily_cap" type="number" min="0" step="1" data-type="int" aria-label="Daily cap of ${p.name}, minor units"></label>
<label>Owner PIN <span class="hint">to raise a cap</span><input name="pin" type="password" inputmode="numeric" autocomplete="off" aria-label="Owner PIN to change the caps of ${p.name}"></label>
<button type="submit">Set caps</button></form>`;
  }
  return '';
}

function approvalsPage(services: Services, req: Request) {
  const payees = newestFirst(services.store.all(PAYEES));
  const runs = newestFirst(services.store.all<{ id: string; status: string; merchant_id: string; environment: string; currency: string; created_at: string }>(PAYROLL_RUNS)).filter(
    (r) => r.status === 'pending_approval',
  );
  const typed = param(req.query.phone);
  const phone = typed === undefined ? undefined : normalizePhone(typed);
  const phones = [...new Set([...services.store.all(OTP_INBOX)].map((o) => o.phone))];
  const messages = phone ? inbox(services, phone) : phones.flatMap((p) => inbox(services, p)).sort((a, b) => (a.sent_at < b.sent_at ? 1 : -1));
  return dashboardPage(
    'Approvals and inboxes',
    'approvals',
    html`<div id="live">
<h2>Payees</h2>
<div class="scroll"><table class="stack" aria-label="Payees">
<thead><tr><th scope="col">Payee</th><th scope="col">Status</th><th scope="col">Env</th><th scope="col">Merchant</th><th scope="col" class="num">Caps (per payout / day)</th><th scope="col">Action</th></tr></thead>
<tbody>${payees.map(
      (p) => html`<tr data-payee="${p.id}"><td>${p.name} <code>${p.id}</code></td><td>${chip(p.status)}</td><td>${envBadge(p.environment)}</td><td><code>${p.merchant_id}</code></td><td class="num">${money(p.per_payout_cap, p.currency)} / ${money(
        p.daily_cap,
        p.currency,
      )}</td><td>${payeeActions(p)}</td></tr>`,
    )}</tbody></table></div>
${payees.length === 0 ? html`<p class="muted">No payees yet (svc emulator payees add).</p>` : ''}
<h2>Payroll runs waiting for approval</h2>
${
  runs.length === 0
    ? html`<p class="muted">None waiting.</p>`
    : html`<ul>${runs.map((r) => html`<li><a href="/checkout/payroll-approval/${r.id}">Approve payroll run ${r.id}</a> ${envBadge(r.environment)} <code>${r.merchant_id}</code> · ${when(r.created_at)} · <a href="/dashboard/records/payroll-runs/${r.id}">lines</a></li>`)}</ul>`
}
</div>
<h2>OTP inbox</h2>
<form class="filters" method="get" action="/dashboard/approvals"><label>Phone<span class="hint">E.164, such as +231770000201</span><input name="phone" value="${typed ?? ''}" autocomplete="off"></label><button type="submit">Show messages</button></form>
${typed !== undefined && !phone ? html`<p class="alert error" role="alert">${typed} is not a phone number (E.164, such as +231770000201).</p>` : ''}
<div class="scroll"><table aria-label="OTP messages">
<thead><tr><th scope="col">Phone</th><th scope="col">Code</th><th scope="col">Purpose</th><th scope="col">Sent</th><th scope="col">Expires</th></tr></thead>
<tbody>${messages.map((m) => html`<tr><td>${m.phone}</td><td><code>${m.code}</code></td><td>${m.purpose.replace('_', ' ')}</td><td>${when(m.sent_at)}</td><td>${when(m.expires_at)}</td></tr>`)}</tbody></table></div>
${messages.length === 0 ? html`<p class="muted">No messages${phone ? ` to ${phone}` : ''}.</p>` : ''}`,
  );
}

export function mountApprovals(router: Router, services: Services): void {
  router.get('/approvals', (req: Request, res: Response) => sendDashboard(res, 200, approvalsPage(services, req)));
}
