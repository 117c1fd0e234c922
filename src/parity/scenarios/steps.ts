import type { Auth, CallStep } from '../types.js';

// Steps several scenarios build the same way: a link paid through simulate, a mandate charge.
// Still data: each returns plain steps; the idempotency keys carry the run's nonce.

/** A link of `amount` USD (step `link`), paid by card through simulate (step `pay`). */
export function paidLink(o: { link: string; pay: string; key: string; amount: number; title: string; auth?: Auth }): CallStep[] {
  const auth = o.auth === undefined ? {} : { auth: o.auth };
  return [
    { name: o.link, method: 'POST', path: '/v1/api/payment-links', ...auth, headers: { 'X-Idempotency-Key': `parity-\${run}-${o.key}` }, body: { title: `${o.title} \${run}`, amount: o.amount, currency: 'USD' } },
    { name: o.pay, method: 'POST', path: `/v1/api/payment-links/\${${o.link}:id}/simulate`, ...auth, body: { outcome: 'completed', method: 'card' } },
  ];
}

/** POST /v1/api/charges with the gateway key and the body's cycle key both unique to the step. */
export function charge(name: string, key: string, body: { mandate_id: string; amount_cents: number; outcome?: 'completed' | 'failed' }, auth?: Auth): CallStep {
  return {
    name,
    method: 'POST',
    path: '/v1/api/charges',
    ...(auth === undefined ? {} : { auth }),
    headers: { 'X-Idempotency-Key': `parity-\${run}-${key}` },
    body: { mandate_id: body.mandate_id, amount_cents: body.amount_cents, currency: 'USD', idempotency_key: `parity-\${run}-${key}-cycle`, ...(body.outcome && { outcome: body.outcome }) },
  };
}
