import { storedCollection, type RecordOf } from '../store/collection.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/store.js';
import { assertPayable, type LinkRecord } from '../resources/payment-links/domain.js';
import { createPayment, PAYMENTS, type PaymentRecord } from '../resources/payments/domain.js';
import { cardOutcome, normalizeCardNumber, passesLuhn } from '../resources/cards/test-cards.js';
import { maskPhone, normalizePhone } from '../resources/users/phone.js';
import { payFromUserWallet } from './wallet-payment.js';
import { FieldProblem } from './checkout-errors.js';
import { parseExpiry } from './fields.js';

export { FieldProblem };

// Paying a link from the hosted checkout. The form's fields are checked here (a checkout
// refuses a mistyped card before anything is charged); the payment itself is made by
// `createPayment`, the same code simulate uses, so records, link totals, wallets and webhooks
// are the same whichever way a link was paid.

export type CheckoutMethod = 'card' | 'momo' | 'wallet';

export type PayerDetails =
  | { method: 'card'; number: string; expiry: string; cvc: string }
  | { method: 'momo'; phone: string }
  | { method: 'wallet'; phone: string; pin: string };

export type CheckoutPaymentRecord = RecordOf<'checkout_payments'>;

export const CHECKOUT_PAYMENTS = storedCollection('checkout_payments', { by_link: (c) => c.link_id });

/**
 * A live MoMo payment still waiting on a fixed-amount link. While there is one, the link takes
 * no other payment: a second payer would otherwise pay a link that is about to be paid.
 */
export function waitingPaymentOf(services: Pick<Services, 'store'>, link: LinkRecord): PaymentRecord | undefined {
  if (link.amount === null) return undefined;
  for (const c of services.store.byIndex(CHECKOUT_PAYMENTS, 'by_link', link.id)) {
    const payment = services.store.get(PAYMENTS, c.id);
    if (payment?.status === 'pending') return payment;
  }
  return undefined;
}

function checkPhone(raw: string): string {
  const phone = normalizePhone(raw);
  if (!phone) throw new FieldProblem('phone', 'Enter a phone number with its country code, such as +231770000201.');
  return phone;
}

function checkCard(details: { number: string; expiry: string; cvc: string }, now: number): string {
  const number = normalizeCardNumber(details.number);
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) throw new FieldProblem('number', 'That card number is not valid. Check the digits.');
  const exp = parseExpiry(details.expiry);
  if (!exp) throw new FieldProblem('expiry', 'Enter the expiry date as MM/YY.');
  const today = new Date(now);
  if (exp.year * 12 + exp.month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) throw new FieldProblem('expiry', 'This card has expired.');
  if (!/^\d{3,4}$/.test(details.cvc.trim())) throw new FieldProblem('cvc', 'The security code is the 3 or 4 digits on the card.');
  return number;
}

const CARD_FAILURES = {
  declined: 'The card was declined.',
  insufficient_funds: 'The card was declined for insufficient funds.',
} as const;

/**
 * Makes the payment inside `tx`. Card: the test card table decides. MoMo: completes at once on
 * a test link (the sandbox does not simulate settlement timing); on a live link it stays
 * `pending` until the provider clears it (its due time is read from the payment by the scheduler, see momo-clearing.ts).
 * Wallet: the service user's PIN, then their balance decides.
 */
export function payLinkAtCheckout(
  services: Services,
  tx: Transaction,
  link: LinkRecord,
  input: { amount: number | undefined; payer: PayerDetails },
): PaymentRecord {
  const now = services.clock.now();
  const amount = assertPayable(link, input.payer.method, input.amount, now);
  if (waitingPaymentOf(services, link)) throw new FieldProblem('', 'A payment for this link is already waiting for approval. Try again once it has cleared.');
  const payer = input.payer;
  let status: PaymentRecord['status'];
  let paidWith: string;
  let failure: string | null = null;
  let walletDebit: ((payment: PaymentRecord) => void) | undefined;

  if (payer.method === 'card') {
    const number = checkCard(payer, now);
    const outcome = cardOutcome(number);
    status = outcome === 'succeeds' ? 'completed' : 'failed';
    if (outcome !== 'succeeds') failure = CARD_FAILURES[outcome];
    paidWith = `Card •••• ${number.slice(-4)}`;
  } else if (payer.method === 'momo') {
    const phone = checkPhone(payer.phone);
    status = link.environment === 'live' ? 'pending' : 'completed';
    paidWith = `Mobile money ${maskPhone(phone)}`;
  } else {
    const phone = checkPhone(payer.phone);
    const wallet = payFromUserWallet(services, tx, { phone, pin: payer.pin, environment: link.environment, currency: link.currency, amount });
    status = wallet.ok ? 'completed' : 'failed';
    failure = wallet.ok ? null : wallet.reason;
    walletDebit = wallet.ok ? wallet.debit : undefined;
    paidWith = `Wallet of ${wallet.userName}`;
  }

  const payment = createPayment(services, tx, {
    merchantId: link.merchant_id,
    environment: link.environment,
    amount,
    currency: link.currency,
    method: payer.method,
    status,
    link,
  });
  walletDebit?.(payment);
  tx.put(CHECKOUT_PAYMENTS, { id: payment.id, link_id: link.id, paid_with: paidWith, failure_reason: failure });
  return payment;
}
