import { html, type Html } from './html.js';
import { cardFields, errorBox, input, pinInput } from './fields.js';
import { layout, type PageOptions } from './layout.js';
import { formatMinor } from './money.js';
import { AUTO_RETURN_SECONDS, returnUrl } from './return-url.js';
import type { LinkRecord } from '../resources/payment-links/domain.js';
import type { PaymentRecord } from '../resources/payments/domain.js';
import type { CheckoutMethod, CheckoutPaymentRecord } from './checkout-pay.js';

// The payment-link checkout's views: the pay form, the confirmation, the expired and paid
// pages. Pure functions from records to HTML; checkout.ts decides which one to send.

const METHOD_LABELS: Record<CheckoutMethod, string> = { card: 'Card', momo: 'Mobile money', wallet: 'Wallet' };

export interface FormState {
  method: CheckoutMethod;
  token: string;
  /** What the payer typed, shown again after an error (never the card number, CVC or PIN). */
  values: { amount?: string; phone?: string; expiry?: string };
  error?: { field: string; message: string };
}

const linkPath = (link: LinkRecord) => `/checkout/${encodeURIComponent(link.link_code)}`;

function methodFields(link: LinkRecord, state: FormState): Html {
  const { values, error } = state;
  if (state.method === 'card') return cardFields(link.environment, error, values.expiry);
  if (state.method === 'momo') {
    return html`${input({ name: 'phone', label: 'Mobile money number', hint: 'With the country code, e.g. +231770000201. Approve the request on your phone.', type: 'tel', value: values.phone, error, attrs: html`autocomplete="tel"` })}`;
  }
  return html`${input({ name: 'phone', label: 'Wallet phone number', hint: 'The phone number of your service wallet', type: 'tel', value: values.phone, error, attrs: html`autocomplete="tel"` })}
${pinInput('Wallet PIN', error)}`;
}

export function payPage(link: LinkRecord, merchantName: string, state: FormState): Html {
  const opts: PageOptions = { title: `Pay ${merchantName}: ${link.title}`, merchantName, environment: link.environment };
  const anyAmount = link.amount === null;
  const tabs =
    link.accepted_methods.length > 1
      ? html`<nav class="methods" aria-label="Payment method">${link.accepted_methods.map(
          (m) => html`<a href="${linkPath(link)}?method=${m}"${m === state.method ? html` aria-current="page"` : ''}>${METHOD_LABELS[m]}</a>`,
        )}</nav>`
      : html`<p class="muted">Pay by ${METHOD_LABELS[state.method].toLowerCase()}</p>`;
  return layout(
    opts,
    html`<h1>${link.title}</h1>
${link.description ? html`<p class="muted">${link.description}</p>` : ''}
${anyAmount ? '' : html`<p class="amount">${formatMinor(link.amount!, link.currency)}</p>`}
${tabs}
${errorBox(state.error)}
<form method="post" action="${linkPath(link)}">
<fieldset>
<legend class="visually-hidden">${METHOD_LABELS[state.method]}</legend>
<input type="hidden" name="token" value="${state.token}">
<input type="hidden" name="method" value="${state.method}">
${
  anyAmount
    ? input({ name: 'amount', label: `Amount (${link.currency})`, hint: 'Enter the amount you want to pay', value: state.values.amount, error: state.error, attrs: html`inputmode="decimal" autocomplete="off"` })
    : ''
}
${methodFields(link, state)}
</fieldset>
<button type="submit">${anyAmount ? 'Pay' : `Pay ${formatMinor(link.amount!, link.currency)}`}</button>
</form>`,
  );
}

function returnButton(href: string): Html {
  return html`<a class="button" href="${href}">Return to seller</a>`;
}

export function confirmationPage(link: LinkRecord, merchantName: string, payment: PaymentRecord, checkout: CheckoutPaymentRecord | undefined): Html {
  const amount = formatMinor(payment.amount, payment.currency);
  const details = html`<dl>
<dt>Amount</dt><dd>${amount}</dd>
<dt>Method</dt><dd>${checkout?.paid_with ?? payment.payment_method}</dd>
<dt>Payment</dt><dd>${payment.id}</dd>
<dt>Reference</dt><dd>${link.link_code}</dd>
</dl>`;
  const base: PageOptions = { title: '', merchantName, environment: link.environment };
  const back = link.redirect_url;

  if (payment.status === 'pending') {
    // Not finished: no return yet. The page reloads itself (no JavaScript needed) until the
    // provider clears the payment, then shows the paid confirmation and returns the payer.
    const self = `${linkPath(link)}/payments/${encodeURIComponent(payment.id)}`;
    return layout(
      { ...base, title: 'Waiting for mobile money approval', refresh: { seconds: 3, url: self } },
      html`<h1>${link.title}</h1>
<div class="alert wait" role="status"><p class="status">Waiting for approval</p><p>Approve the request for ${amount} on your phone. This page updates by itself.</p></div>
${details}`,
    );
  }

  if (payment.status === 'completed') {
    const target = back ? returnUrl(back, { paymentId: payment.id, linkCode: link.link_code, status: 'completed' }) : undefined;
    return layout(
      { ...base, title: 'Payment received', refresh: target ? { seconds: AUTO_RETURN_SECONDS, url: target } : undefined },
      html`<h1>${link.title}</h1>
<div class="alert ok" role="status"><p class="status">Payment received</p><p>Thank you. ${merchantName} has been paid ${amount}.</p></div>
${details}
${target ? html`<p class="muted">Returning you to the seller in ${AUTO_RETURN_SECONDS} seconds…</p>${returnButton(target)}` : ''}`,
    );
  }

  // The spec: a failed order shows only the Return to seller button. Without a redirect_url the
  // payer stays here, so the way to pay again is offered instead.
  const target = back ? returnUrl(back, { paymentId: payment.id, linkCode: link.link_code, status: 'failed' }) : undefined;
  return layout(
    { ...base, title: 'Payment failed' },
    html`<h1>${link.title}</h1>
<div class="alert error" role="alert"><p class="status">Payment failed</p><p>${checkout?.failure_reason ?? 'The payment did not go through.'} Nothing was charged.</p></div>
${details}
${target ? returnButton(target) : html`<p><a href="${linkPath(link)}">Try again</a></p>`}`,
  );
}

/** An expired link, or one already paid: no form, and for an expired one the way back. */
export function closedLinkPage(link: LinkRecord, merchantName: string, status: 'expired' | 'completed'): Html {
  const base: PageOptions = { title: '', merchantName, environment: link.environment };
  if (status === 'completed') {
    return layout(
      { ...base, title: 'Already paid' },
      html`<h1>${link.title}</h1><div class="alert ok" role="status"><p class="status">This link has already been paid</p><p>It accepts no further payments. If you expected to pay, ask ${merchantName} for a new link.</p></div>`,
    );
  }
  const target = link.redirect_url ? returnUrl(link.redirect_url, { paymentId: null, linkCode: link.link_code, status: 'expired' }) : undefined;
  return layout(
    { ...base, title: 'Link expired' },
    html`<h1>${link.title}</h1><div class="alert error" role="alert"><p class="status">This payment link has expired</p><p>It expired on ${new Date(link.expires_at!).toUTCString()}. Nothing was charged. Ask ${merchantName} for a new link.</p></div>
${target ? returnButton(target) : ''}`,
  );
}
