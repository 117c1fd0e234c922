import type { Response, Router } from 'express';
import type { Services } from '../services.js';
import { approvePayrollRun, findRunForApproval, type PayrollRunRecord } from '../resources/payroll/domain.js';
import { maskPhone } from '../resources/users/phone.js';
import { errorBox, pinInput, type FormError } from './fields.js';
import { issueFormToken } from './form-token.js';
import { formField } from './form.js';
import { html, type Html } from './html.js';
import { layout, messagePage, sendPage } from './layout.js';
import { handleApproval } from './approval.js';
import { merchantName } from './merchant.js';
import { formatMinor } from './money.js';

// {checkout_url}/payroll-approval/{run_id}: the business owner reviews the run's lines and
// total and approves with their PIN; `approvePayrollRun` checks the PIN (with the lockout) and
// executes the run. Afterwards the same page shows how each line ended.

const path = (r: PayrollRunRecord) => `/checkout/payroll-approval/${encodeURIComponent(r.id)}`;

const LINE_STATUS: Record<string, string> = { pending: 'Pending', paid: 'Paid', failed: 'Failed', needs_attention: 'Needs attention' };
const FAILURE: Record<string, string> = { no_matching_user: 'no wallet has this phone', insufficient_funds: 'business wallet too low' };
const RUN_STATUS: Record<string, string> = { completed: 'Every payment was made.', partial: 'Some payments were made; see the lines below.', failed: 'No payment was made; see the lines below.' };

function linesTable(r: PayrollRunRecord, executed: boolean): Html {
  const total = r.lines.reduce((sum, l) => sum + l.amount_cents, 0);
  return html`<table>
<caption class="visually-hidden">Payroll lines</caption>
<thead><tr><th scope="col">Payee</th><th scope="col" class="num">Amount</th>${executed ? html`<th scope="col">Status</th>` : ''}</tr></thead>
<tbody>${r.lines.map(
    (l) => html`<tr><td>${l.label}<br><span class="muted">${maskPhone(l.payee_phone)} · ${l.external_ref}</span></td><td class="num">${formatMinor(l.amount_cents, r.currency)}</td>${
      executed ? html`<td>${LINE_STATUS[l.status] ?? l.status}${l.failure_reason ? html`<br><span class="muted">${FAILURE[l.failure_reason] ?? l.failure_reason}</span>` : ''}</td>` : ''
    }</tr>`,
  )}</tbody>
<tfoot><tr><td>Total (${r.lines.length} payment${r.lines.length === 1 ? '' : 's'})</td><td class="num">${formatMinor(total, r.currency)}</td>${executed ? html`<td></td>` : ''}</tr></tfoot>
</table>`;
}

function approvePage(r: PayrollRunRecord, merchant: string, token: string, error?: FormError): Html {
  return layout(
    { title: `Approve payroll for ${merchant}`, merchantName: merchant, environment: r.environment },
    html`<h1>Approve payroll</h1>
${r.note ? html`<p>${r.note}</p>` : ''}
<p class="muted">Approving pays every line below from ${merchant}'s ${r.currency} wallet at once.</p>
${linesTable(r, false)}
${errorBox(error)}
<form method="post" action="${path(r)}">
<input type="hidden" name="token" value="${token}">
${pinInput('Business owner PIN', error)}
<button type="submit">Approve and pay</button>
</form>`,
  );
}

function resultPage(r: PayrollRunRecord, merchant: string): Html {
  const tone = r.status === 'completed' ? 'ok' : r.status === 'partial' ? 'wait' : 'error';
  return layout(
    { title: 'Payroll approved', merchantName: merchant, environment: r.environment },
    html`<h1>Payroll ${r.status === 'completed' ? 'paid' : r.status}</h1>
<div class="alert ${tone}" role="status"><p class="status">Approved${r.approved_at ? ` ${new Date(r.approved_at).toUTCString()}` : ''}</p><p>${RUN_STATUS[r.status] ?? `The run is ${r.status}.`}</p></div>
${r.note ? html`<p>${r.note}</p>` : ''}
${linesTable(r, true)}`,
  );
}

export function mountPayrollApproval(router: Router, services: Services): void {
  const notFound = (res: Response) => sendPage(res, 404, messagePage({ title: 'Payroll run not found' }, 'Payroll run not found', 'Check the approval address.'));

  router.get('/payroll-approval/:id', (req, res) => {
    const r = findRunForApproval(services, req.params.id);
    if (!r) return notFound(res);
    const merchant = merchantName(services, r.merchant_id);
    if (r.status !== 'pending_approval') return sendPage(res, 200, resultPage(r, merchant));
    sendPage(res, 200, approvePage(r, merchant, issueFormToken(services, `payroll:${r.id}`)));
  });

  router.post('/payroll-approval/:id', (req, res) => {
    const r = findRunForApproval(services, req.params.id);
    if (!r) return notFound(res);
    const merchant = merchantName(services, r.merchant_id);
    handleApproval(services, req, res, {
      subject: `payroll:${r.id}`,
      path: path(r),
      approve: (tx) => approvePayrollRun(services, tx, r.id, formField(req, 'pin') ?? ''),
      rerender: (token, error) => approvePage(r, merchant, token, error),
    });
  });
}
