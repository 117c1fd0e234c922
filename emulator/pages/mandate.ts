import type { Router } from 'express';
import type { Services } from '../services.js';
import { approveCardMandate, type MandateRecord } from '../resources/mandates/domain.js';
import { FieldProblem } from './checkout-errors.js';
import { errorBox, cardFields, parseExpiry, type FormError } from './fields.js';
import { formField } from './form.js';
import { html, type Html } from './html.js';
import { layout } from './layout.js';
import { mandatePagePath, mandateTerms, mountMandatePage } from './mandate-page.js';

// {checkout_url}/mandate/{id}: the customer saves a card for a merchant's recurring charges;
// `approveCardMandate` stores it and makes the mandate active. No service account is needed.

const path = (m: MandateRecord) => mandatePagePath('mandate', m);

function cardPage(m: MandateRecord, merchant: string, token: string, error?: FormError, expiry?: string): Html {
  return layout(
    { title: `Save a card for ${merchant}`, merchantName: merchant, environment: m.environment },
    html`<h1>Save a card for ${merchant}</h1>
<p class="muted">${merchant} will charge this card for your recurring payments. You can ask them to cancel at any time.</p>
${mandateTerms(m, merchant)}
${errorBox(error)}
<form method="post" action="${path(m)}">
<input type="hidden" name="token" value="${token}">
${cardFields(m.environment, error, expiry)}
<button type="submit">Save card</button>
</form>`,
  );
}

function activePage(m: MandateRecord, merchant: string): Html {
  return layout(
    { title: 'Card saved', merchantName: merchant, environment: m.environment },
    html`<h1>Card saved</h1>
<div class="alert ok" role="status"><p class="status">Mandate active</p><p>${merchant} can now charge your ${m.card ? `${m.card.brand} card ending ${m.card.last4}` : 'card'} for recurring payments.</p></div>
${mandateTerms(m, merchant)}`,
  );
}

export function mountCardMandate(router: Router, services: Services): void {
  mountMandatePage(router, services, {
    rail: 'card',
    segment: 'mandate',
    echoedField: 'expiry',
    form: cardPage,
    active: activePage,
    aliases: { exp_month: 'expiry', exp_year: 'expiry' },
    approve(services, m, req, expiryText, tx) {
      const expiry = parseExpiry(expiryText);
      if (!expiry) throw new FieldProblem('expiry', 'Enter the expiry date as MM/YY.');
      approveCardMandate(services, tx, m.id, { number: formField(req, 'number') ?? '', exp_month: expiry.month, exp_year: expiry.year, cvc: (formField(req, 'cvc') ?? '').trim() });
    },
  });
}
