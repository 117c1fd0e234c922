import { html, type Html } from './html.js';
import { TEST_CARDS } from '../resources/cards/test-cards.js';

// Labelled form fields, one way for every page: a visible <label>, an optional hint tied to
// the input with aria-describedby, and the error state screen readers announce.

export interface FormError {
  field: string;
  message: string;
}

export function input(opts: { name: string; label: string; hint?: string; type?: string; value?: string; error?: FormError; attrs?: Html }): Html {
  const id = `f-${opts.name}`;
  const invalid = opts.error?.field === opts.name;
  const described = invalid ? 'form-error' : opts.hint ? `${id}-hint` : undefined;
  return html`<label for="${id}">${opts.label}${opts.hint ? html`<span class="hint" id="${id}-hint">${opts.hint}</span>` : ''}</label>
<input id="${id}" name="${opts.name}" type="${opts.type ?? 'text'}" value="${opts.value ?? ''}" required${invalid ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''} ${opts.attrs ?? ''}>`;
}

export const errorBox = (error: FormError | undefined) => (error ? html`<div class="alert error" role="alert" id="form-error">${error.message}</div>` : '');

export const pinInput = (label: string, error: FormError | undefined) =>
  input({ name: 'pin', label, type: 'password', error, attrs: html`inputmode="numeric" autocomplete="off" maxlength="6"` });


/** Card number, expiry and CVC (checkout and the card-mandate page); test mode lists the test cards. */
export function cardFields(environment: 'test' | 'live', error: FormError | undefined, expiry?: string): Html {
  const testCards =
    environment === 'test'
      ? html`<details class="muted" open><summary>Test card numbers</summary><ul>${TEST_CARDS.map(
          (c) => html`<li><code>${c.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code> ${c.label}</li>`,
        )}</ul><p>Any future expiry date and any 3-digit CVC.</p></details>`
      : '';
  return html`${testCards}
${input({ name: 'number', label: 'Card number', error, attrs: html`inputmode="numeric" autocomplete="cc-number" maxlength="23"` })}
<div class="row"><div>${input({ name: 'expiry', label: 'Expiry', hint: 'MM/YY', value: expiry, error, attrs: html`autocomplete="cc-exp" maxlength="7"` })}</div>
<div>${input({ name: 'cvc', label: 'CVC', hint: '3 or 4 digits', error, attrs: html`inputmode="numeric" autocomplete="cc-csc" maxlength="4"` })}</div></div>`;
}

/** "MM/YY" or "MM/YYYY" → month and four-digit year; undefined when it is neither. */
export function parseExpiry(text: string): { month: number; year: number } | undefined {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return undefined;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return undefined;
  return { month, year: m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]) };
}
