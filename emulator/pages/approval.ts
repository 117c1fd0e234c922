import type { Transaction } from '../store/store.js';
import type { Request, Response } from 'express';
import type { Services } from '../services.js';
import { ApiError } from '../errors.js';
import { checkFormToken, priorSubmission, recordSubmission } from './form-token.js';
import { formField } from './form.js';
import { html, type Html } from './html.js';
import { messagePage, sendPage } from './layout.js';
import { FieldProblem } from './checkout-errors.js';
import type { FormError } from './fields.js';

// What the three approval pages (card mandate, wallet mandate, payroll run) share: their form
// fields, and one POST flow — check the one-time token, call the owning domain's approval
// function (mandates/domain.ts, payroll/domain.ts: the same code the control API uses), record
// the token in the same transaction, and redirect to the page, which now shows the result
// (POST-redirect-GET). A refusal (wrong PIN, bad card) shows the form again with the message.

const FIELD_NAMES: Record<string, string> = { number: 'The card number', expiry: 'The expiry date', cvc: 'The CVC', phone: 'The phone number', pin: 'The PIN' };

/**
 * Which form field an ApiError is about, and its message as a sentence: the domain's
 * "number: is not a valid card number" becomes "The card number is not a valid card number."
 */
function fieldOf(err: ApiError, aliases: Record<string, string> = {}): FormError {
  if (err.code === 'PIN_INVALID' || err.code === 'PIN_LOCKED') return { field: 'pin', message: err.message };
  const m = /^([a-z_]+): (.*)$/.exec(err.message);
  if (!m) return { field: '', message: err.message };
  const field = aliases[m[1]] ?? m[1];
  const why = m[2].replace(/\.$/, '');
  const message = /^(is|must) /.test(why) ? `${FIELD_NAMES[field] ?? field} ${why}.` : `${why.charAt(0).toUpperCase()}${why.slice(1)}.`;
  return { field, message };
}

export function handleApproval(
  services: Services,
  req: Request,
  res: Response,
  opts: {
    subject: string;
    /** The page's own path; the POST redirects back to it. */
    path: string;
    /** Runs inside the page's transaction, with the form's submission record. */
    approve(tx: Transaction): void;
    /** The form again, with what went wrong. */
    rerender(token: string, error: FormError): Html;
    aliases?: Record<string, string>;
  },
): void {
  const token = formField(req, 'token');
  const nonce = checkFormToken(services, opts.subject, token);
  if (!nonce) {
    return sendPage(res, 400, messagePage({ title: 'Form not accepted' }, 'This form cannot be used', 'It was not issued for this page. Nothing was approved.', html`<a class="button" href="${opts.path}">Open the page again</a>`));
  }
  // The same form sent twice (double click): the first submission's result stands.
  if (priorSubmission(services, nonce)) return res.redirect(303, opts.path);
  try {
    services.store.transaction((tx) => {
      opts.approve(tx);
      recordSubmission(services, tx, nonce, opts.subject, opts.path);
    });
    res.redirect(303, opts.path);
  } catch (err) {
    if (err instanceof FieldProblem) return sendPage(res, 422, opts.rerender(token!, { field: err.field, message: err.message }));
    if (err instanceof ApiError && err.code === 'INVALID_STATE') return res.redirect(303, opts.path); // approved meanwhile: show how it stands
    if (err instanceof ApiError && err.status < 500) return sendPage(res, err.status, opts.rerender(token!, fieldOf(err, opts.aliases)));
    throw err;
  }
}
