import type { Router } from 'express';
import type { Services } from '../services.js';
import { approveWalletMandate, type MandateRecord } from '../resources/mandates/domain.js';
import { maskPhone } from '../resources/users/phone.js';
import { errorBox, input, pinInput, type FormError } from './fields.js';
import { formField } from './form.js';
import { html, type Html } from './html.js';
import { layout } from './layout.js';
import { mandatePagePath, mandateTerms, mountMandatePage } from './mandate-page.js';

// {checkout_url}/wallet-mandate/{id}: the customer approves a merchant's wallet mandate with
// their wallet phone and PIN (the wallet app's approval); `approveWalletMandate` checks the
// PIN with the lockout and makes the mandate active.

const path = (m: MandateRecord) => mandatePagePath('wallet-mandate', m);

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

function activePage(m: MandateRecord, merchant: string): Html {
  return layout(
    { title: 'Mandate approved', merchantName: merchant, environment: m.environment },
    html`<h1>Approved</h1>
<div class="alert ok" role="status"><p class="status">Mandate active</p><p>${merchant} can now charge your wallet${m.customer_phone ? ` ${maskPhone(m.customer_phone)}` : ''}.</p></div>
${mandateTerms(m, merchant)}`,
  );
}

export function mountWalletMandate(router: Router, services: Services): void {
  mountMandatePage(router, services, {
    rail: 'wallet',
    segment: 'wallet-mandate',
    echoedField: 'phone',
    form: approvePage,
    active: activePage,
    approve: (services, m, req, phone, tx) => void approveWalletMandate(services, tx, m.id, { phone, pin: formField(req, 'pin') ?? '' }),
  });
}
