import type { Request, Response, Router } from 'express';
import type { Services } from '../services.js';
import { ApiError } from '../errors.js';
import { findLinkByCode, linkStatus, type LinkRecord } from '../resources/payment-links/domain.js';
import { PAYMENTS } from '../resources/payments/domain.js';
import { FieldProblem } from './checkout-errors.js';
import { CHECKOUT_PAYMENTS, payLinkAtCheckout, waitingPaymentOf, type CheckoutMethod, type PayerDetails } from './checkout-pay.js';
import { checkFormToken, issueFormToken, priorSubmission, recordSubmission } from './form-token.js';
import { formField } from './form.js';
import { merchantName } from './merchant.js';
import { html } from './html.js';
import { messagePage, sendPage } from './layout.js';
import { closedLinkPage, confirmationPage, payPage, type FormState } from './link-pages.js';
import { formatMinor, parseMajor } from './money.js';

// {checkout_url}/{link_code}: the payer's page for a payment link.
//   GET  /checkout/:code?method=…           the form (or the expired / already-paid page)
//   POST /checkout/:code                    pay; 303 to the confirmation (POST-redirect-GET)
//   GET  /checkout/:code/payments/:payment  the confirmation, with the return to the seller

const LINK_CODE = /^PL-[A-Z0-9]{8}$/;
const MAX_MINOR = 100_000_000_000; // the API's MinorUnits bound
const subjectOf = (link: LinkRecord) => `link:${link.id}`;
const confirmationPath = (link: LinkRecord, paymentId: string) => `/checkout/${link.link_code}/payments/${encodeURIComponent(paymentId)}`;

function pickMethod(link: LinkRecord, asked: string | undefined): CheckoutMethod | undefined {
  if (asked === undefined || asked === '') return link.accepted_methods[0];
  return link.accepted_methods.find((m) => m === asked);
}

function notFoundPage(res: Response): void {
  sendPage(res, 404, messagePage({ title: 'Payment link not found' }, 'Payment link not found', 'Check the address, or ask the seller for a new link.'));
}

export function mountCheckout(router: Router, services: Services): void {
  const findLink = (code: string) => (LINK_CODE.test(code) ? findLinkByCode(services, code) : undefined);

  router.get('/:code', (req, res) => {
    const link = findLink(req.params.code);
    if (!link) return notFoundPage(res);
    const merchant = merchantName(services, link.merchant_id);
    const status = linkStatus(link, services.clock.now());
    if (status !== 'pending') return sendPage(res, 410, closedLinkPage(link, merchant, status));
    const waiting = waitingPaymentOf(services, link);
    if (waiting) return sendPage(res, 200, confirmationPage(link, merchant, waiting, services.store.get(CHECKOUT_PAYMENTS, waiting.id)));
    const method = pickMethod(link, typeof req.query.method === 'string' ? req.query.method : undefined);
    if (!method) return sendPage(res, 404, messagePage({ title: 'Payment method not offered' }, 'Payment method not offered', `This link accepts ${link.accepted_methods.join(', ')}.`));
    sendPage(res, 200, payPage(link, merchant, { method, token: issueFormToken(services, subjectOf(link)), values: {} }));
  });

  router.post('/:code', (req, res) => {
    const link = findLink(req.params.code);
    if (!link) return notFoundPage(res);
    const merchant = merchantName(services, link.merchant_id);
    const method = pickMethod(link, formField(req, 'method'));
    const subject = subjectOf(link);
    const nonce = checkFormToken(services, subject, formField(req, 'token'));
    if (!method || !nonce) {
      return sendPage(
        res,
        400,
        messagePage({ title: 'Form not accepted', merchantName: merchant, environment: link.environment }, 'This form cannot be used', 'It was not issued for this link. Nothing was charged.', html`<a class="button" href="/checkout/${link.link_code}">Open the payment page</a>`),
      );
    }
    // A second submission of the same form (double click, resubmit): show the first result.
    const prior = priorSubmission(services, nonce);
    if (prior) return res.redirect(303, prior.result_path);

    const values: FormState['values'] = { amount: formField(req, 'amount'), phone: formField(req, 'phone'), expiry: formField(req, 'expiry') };
    const again = (status: number, error: FormState['error']) => sendPage(res, status, payPage(link, merchant, { method, token: formField(req, 'token')!, values, error }));
    try {
      let amount: number | undefined;
      if (link.amount === null) {
        amount = parseMajor(values.amount ?? '', link.currency);
        if (amount === undefined || amount > MAX_MINOR) throw new FieldProblem('amount', `Enter an amount in ${link.currency}, such as ${formatMinor(1250, link.currency)}.`);
      }
      const payer = payerDetails(req, method);
      const payment = services.store.transaction((tx) => {
        const made = payLinkAtCheckout(services, tx, link, { amount, payer });
        recordSubmission(services, tx, nonce, subject, confirmationPath(link, made.id));
        return made;
      });
      res.redirect(303, confirmationPath(link, payment.id));
    } catch (err) {
      if (err instanceof FieldProblem) return again(422, { field: err.field, message: err.message });
      if (err instanceof ApiError && (err.code === 'LINK_EXPIRED' || err.code === 'LINK_CLOSED')) {
        return sendPage(res, 410, closedLinkPage(link, merchant, err.code === 'LINK_EXPIRED' ? 'expired' : 'completed'));
      }
      if (err instanceof ApiError && err.status < 500) return again(err.status, { field: err.code.startsWith('PIN_') ? 'pin' : '', message: err.message });
      throw err;
    }
  });

  router.get('/:code/payments/:paymentId', (req, res) => {
    const link = findLink(req.params.code);
    const payment = link ? services.store.get(PAYMENTS, req.params.paymentId) : undefined;
    if (!link || !payment || payment.payment_link_id !== link.id) return notFoundPage(res);
    const checkout = services.store.get(CHECKOUT_PAYMENTS, payment.id);
    sendPage(res, 200, confirmationPage(link, merchantName(services, link.merchant_id), payment, checkout));
  });
}

function payerDetails(req: Request, method: CheckoutMethod): PayerDetails {
  const get = (name: string) => formField(req, name) ?? '';
  if (method === 'card') return { method, number: get('number'), expiry: get('expiry'), cvc: get('cvc') };
  if (method === 'momo') return { method, phone: get('phone') };
  return { method, phone: get('phone'), pin: get('pin') };
}
