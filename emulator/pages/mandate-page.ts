import type { Transaction } from '../store/store.js';
import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { findMandateForApproval, type MandateRecord } from '../resources/mandates/domain.js';
import type { FormError } from './fields.js';
import { issueFormToken } from './form-token.js';
import { formField } from './form.js';
import { html, type Html } from './html.js';
import { messagePage, sendPage } from './layout.js';
import { formatMinor } from './money.js';
import { handleApproval } from './approval.js';
import { merchantName } from './merchant.js';

// What the card-mandate and wallet-mandate pages share: finding the mandate of their rail,
// the terms box, the cancelled page, and the GET (form or result) / POST (approve, then
// POST-redirect-GET) routes. Each rail brings its form, its "active" page and its approval.

interface MandatePage {
  rail: MandateRecord['rail'];
  /** The page's segment under /checkout: `mandate` or `wallet-mandate`. */
  segment: string;
  /** The form field echoed back when the form is shown again (the card's expiry, the wallet's phone). */
  echoedField: string;
  form(m: MandateRecord, merchant: string, token: string, error?: FormError, echoed?: string): Html;
  active(m: MandateRecord, merchant: string): Html;
  /** Approves from the submitted form (inside the submission's transaction); throws what the form shows. */
  approve(services: Services, m: MandateRecord, req: Request, echoed: string, tx: Transaction): void;
  /** Domain field names that the form shows under another name. */
  aliases?: Record<string, string>;
}

export const mandatePagePath = (segment: string, m: MandateRecord) => `/checkout/${segment}/${encodeURIComponent(m.id)}`;

/**
 * Whether the page still offers its form. A live mandate is approved once, while pending; a
 * test mandate is active from creation but its page may still save one card (or bind one
 * wallet) so declines and balances can be exercised. The approval function has the last word.
 */
function awaitsApproval(m: MandateRecord): boolean {
  if (m.status === 'pending') return true;
  const bound = m.rail === 'card' ? m.card !== null : m.user_id !== null;
  return m.status === 'active' && m.environment === 'test' && !bound;
}

export const mandateTerms = (m: MandateRecord, merchant: string) =>
  html`<dl><dt>Merchant</dt><dd>${merchant}</dd><dt>Per charge</dt><dd>up to ${formatMinor(m.max_amount_cents, m.currency)}</dd><dt>Your reference</dt><dd>${m.customer_ref}</dd></dl>`;

function statePage(page: MandatePage, m: MandateRecord, merchant: string): Html {
  if (m.status === 'revoked') {
    return messagePage({ title: 'Mandate cancelled', merchantName: merchant, environment: m.environment }, 'This mandate was cancelled', `${merchant} can no longer charge it. Nothing to do here.`);
  }
  return page.active(m, merchant);
}

export function mountMandatePage(router: Router, services: Services, page: MandatePage): void {
  const path = `/${page.segment}/:id` as const;
  const find = (id: string) => {
    const m = findMandateForApproval(services, id);
    return m && m.rail === page.rail ? m : undefined;
  };
  const notFound = (res: Response) => sendPage(res, 404, messagePage({ title: 'Mandate not found' }, 'Mandate not found', 'Check the address the merchant gave you.'));

  router.get(path, (req, res) => {
    const m = find(req.params.id);
    if (!m) return notFound(res);
    const merchant = merchantName(services, m.merchant_id);
    if (!awaitsApproval(m)) return sendPage(res, 200, statePage(page, m, merchant));
    sendPage(res, 200, page.form(m, merchant, issueFormToken(services, `mandate:${m.id}`)));
  });

  router.post(path, (req, res) => {
    const m = find(req.params.id);
    if (!m) return notFound(res);
    const merchant = merchantName(services, m.merchant_id);
    const echoed = formField(req, page.echoedField) ?? '';
    handleApproval(services, req, res, {
      subject: `mandate:${m.id}`,
      path: mandatePagePath(page.segment, m),
      ...(page.aliases ? { aliases: page.aliases } : {}),
      approve: (tx) => page.approve(services, m, req, echoed, tx),
      rerender: (token, error) => page.form(m, merchant, token, error, echoed),
    });
  });
}
