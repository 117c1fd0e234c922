import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { approveWalletMandate, findMandateForApproval, type MandateRecord } from '../resources/mandates/domain.js';
import { maskPhone } from '../resources/users/phone.js';
import { errorBox, input, pinInput, type FormError } from './fields.js';
import { issueFormToken } from './form-token.js';
import { formField } from './form.js';
import { html, type Html } from './html.js';
import { layout, messagePage, sendPage } from './layout.js';
import { handleApproval } from './approval.js';
import { awaitsApproval, mandateTerms } from './mandate.js';
import { merchantName } from './merchant.js';

// {checkout_url}/wallet-mandate/{id}: the customer approves a merchant's wallet mandate with
// their wallet phone and PIN (the wallet app's approval); `approveWalletMandate` checks the
// PIN with the lockout and makes the mandate active.

const path = (m: MandateRecord) => `/checkout/wallet-mandate/${encodeURIComponent(m.id)}`;

function approvePage(m: MandateRecord, merchant: string, token: string, error?: FormError, phone?: string): Html {
  return layout(
    { title: `Approve ${merchant}`, merchantName: merchant, environment: m.environment },
    html`<h1>Let ${merchant} charge your wallet</h1>
<p class="muted">Approve recurring ${m.currency} charges from your service wallet. You can ask ${merchant} to cancel at any time.</p>
${mandateTerms(m, merchant)}
${m.customer_phone ? html`<p class="muted">Requested for the wallet ${maskPhone(m.customer_phone)}.</p>` : ''}
${errorBox(error)}
<form method="post" action="${path(m)}">
<input type="hidden" name="token" value="${token}">
${input({ name: 'phone', label: 'Wallet phone number', hint: 'With the country code, e.g. +231770000201', type: 'tel', value: phone, error, attrs: html`autocomplete="tel"` })}
${pinInput('Wallet PIN', error)}
<button type="submit">Approve</button>
</form>`,
  );
}

function statePage(m: MandateRecord, merchant: string): Html {
  if (m.status === 'revoked') {
    return messagePage({ title: 'Mandate cancelled', merchantName: merchant, environment: m.environment }, 'This mandate was cancelled', `${merchant} can no longer charge it. Nothing to do here.`);
  }
  return layout(
    { title: 'Mandate approved', merchantName: merchant, environment: m.environment },
    html`<h1>Approved</h1>
<div class="alert ok" role="status"><p class="status">Mandate active</p><p>${merchant} can now charge your wallet${m.customer_phone ? ` ${maskPhone(m.customer_phone)}` : ''}.</p></div>
${mandateTerms(m, merchant)}`,
  );
}

export function mountWalletMandate(router: Router, services: Services): void {
  const find = (req: Request) => {
    const m = findMandateForApproval(services, req.params.id as string);
    return m && m.rail === 'wallet' ? m : undefined;
  };
  const notFound = (res: Response) => sendPage(res, 404, messagePage({ title: 'Mandate not found' }, 'Mandate not found', 'Check the address the merchant gave you.'));

  router.get('/wallet-mandate/:id', (req: Request, res: Response) => {
    const m = find(req);
    if (!m) return notFound(res);
    const merchant = merchantName(services, m.merchant_id);
    if (!awaitsApproval(m)) return sendPage(res, 200, statePage(m, merchant));
    sendPage(res, 200, approvePage(m, merchant, issueFormToken(services, `mandate:${m.id}`)));
  });

  router.post('/wallet-mandate/:id', (req: Request, res: Response) => {
    const m = find(req);
    if (!m) return notFound(res);
    const merchant = merchantName(services, m.merchant_id);
    const phone = formField(req, 'phone') ?? '';
    handleApproval(services, req, res, {
      subject: `mandate:${m.id}`,
      path: path(m),
      approve: () => approveWalletMandate(services, m.id, { phone, pin: formField(req, 'pin') ?? '' }),
      rerender: (token, error) => approvePage(m, merchant, token, error, phone),
    });
  });
}
