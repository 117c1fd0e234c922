import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { approveCardMandate, findMandateForApproval, type MandateRecord } from '../resources/mandates/domain.js';
import { FieldProblem } from './checkout-errors.js';
import { errorBox, cardFields, parseExpiry, type FormError } from './fields.js';
import { issueFormToken } from './form-token.js';
import { formField } from './form.js';
import { html, type Html } from './html.js';
import { layout, messagePage, sendPage } from './layout.js';
import { formatMinor } from './money.js';
import { handleApproval } from './approval.js';
import { merchantName } from './merchant.js';

// {checkout_url}/mandate/{id}: the customer saves a card for a merchant's recurring charges;
// `approveCardMandate` stores it and makes the mandate active. No service account is needed.

const path = (m: MandateRecord) => `/checkout/mandate/${encodeURIComponent(m.id)}`;

/**
 * Whether the page still offers its form. A live mandate is approved once, while pending; a
 * test mandate is active from creation but its page may still save one card (or bind one
 * wallet) so declines and balances can be exercised. The approval function has the last word.
 */
export function awaitsApproval(m: MandateRecord): boolean {
  if (m.status === 'pending') return true;
  const bound = m.rail === 'card' ? m.card !== null : m.user_id !== null;
  return m.status === 'active' && m.environment === 'test' && !bound;
}

export const mandateTerms = (m: MandateRecord, merchant: string) =>
  html`<dl><dt>Merchant</dt><dd>${merchant}</dd><dt>Per charge</dt><dd>up to ${formatMinor(m.max_amount_cents, m.currency)}</dd><dt>Your reference</dt><dd>${m.customer_ref}</dd></dl>`;

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

function statePage(m: MandateRecord, merchant: string): Html {
  if (m.status === 'revoked') {
    return messagePage({ title: 'Mandate cancelled', merchantName: merchant, environment: m.environment }, 'This mandate was cancelled', `${merchant} can no longer charge it. Nothing to do here.`);
  }
  return layout(
    { title: 'Card saved', merchantName: merchant, environment: m.environment },
    html`<h1>Card saved</h1>
<div class="alert ok" role="status"><p class="status">Mandate active</p><p>${merchant} can now charge your ${m.card ? `${m.card.brand} card ending ${m.card.last4}` : 'card'} for recurring payments.</p></div>
${mandateTerms(m, merchant)}`,
  );
}

export function mountCardMandate(router: Router, services: Services): void {
  const find = (req: Request) => {
    const m = findMandateForApproval(services, req.params.id as string);
    return m && m.rail === 'card' ? m : undefined;
  };
  const notFound = (res: Response) => sendPage(res, 404, messagePage({ title: 'Mandate not found' }, 'Mandate not found', 'Check the address the merchant gave you.'));

  router.get('/mandate/:id', (req: Request, res: Response) => {
    const m = find(req);
    if (!m) return notFound(res);
    const merchant = merchantName(services, m.merchant_id);
    if (!awaitsApproval(m)) return sendPage(res, 200, statePage(m, merchant));
    sendPage(res, 200, cardPage(m, merchant, issueFormToken(services, `mandate:${m.id}`)));
  });

  router.post('/mandate/:id', (req: Request, res: Response) => {
    const m = find(req);
    if (!m) return notFound(res);
    const merchant = merchantName(services, m.merchant_id);
    const expiryText = formField(req, 'expiry') ?? '';
    handleApproval(services, req, res, {
      subject: `mandate:${m.id}`,
      path: path(m),
      aliases: { exp_month: 'expiry', exp_year: 'expiry' },
      approve() {
        const expiry = parseExpiry(expiryText);
        if (!expiry) throw new FieldProblem('expiry', 'Enter the expiry date as MM/YY.');
        approveCardMandate(services, m.id, { number: formField(req, 'number') ?? '', exp_month: expiry.month, exp_year: expiry.year, cvc: (formField(req, 'cvc') ?? '').trim() });
      },
      rerender: (token, error) => cardPage(m, merchant, token, error, expiryText),
    });
  });
}
