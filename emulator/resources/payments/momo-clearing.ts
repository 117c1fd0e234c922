import type { Services } from '../../services.js';
import { providerOutage } from '../../faults/provider.js';
import { parseMicros } from '../../ids.js';
import { recordWork } from '../../scheduler/work.js';
import { applyOutcome, PAYMENTS, type PaymentRecord } from './domain.js';

// The live MoMo path of the state table: a mobile-money payment made on a live link's checkout
// is `pending` until the provider clears it, `config.momoClearMs` after it was made, on the
// emulator's clock. Clearing goes through `applyOutcome`, like every settlement: link totals,
// the merchant's wallet and the `payment.completed` webhook follow.
//
// Nothing arms it: the due time is read from the payment itself (`momoClearing`, timed work
// the scheduler runs), so the page that took the payment, a restart, a reset or a restore need
// do nothing for it. A clock advance clears it with the clock at its due time.

function isClearingMomo(payment: PaymentRecord): boolean {
  return payment.status === 'pending' && payment.payment_method === 'momo' && payment.payment_link_id !== null;
}

function clearMomoPayment(services: Services, paymentId: string): void {
  services.store.transaction((tx) => {
    const payment = services.store.get(PAYMENTS, paymentId);
    // Cleared already or gone: nothing to do.
    if (!payment || payment.status !== 'pending') return;
    applyOutcome(services, tx, payment, 'completed');
  });
}

export const momoClearing = recordWork({
  name: 'MoMo clearing',
  collection: PAYMENTS,
  // Runs on every payment write: three field reads for a payment that is not clearing.
  dueAt: (p, services) => (isClearingMomo(p) ? Math.floor(parseMicros(p.created_at) / 1000) + services.config.momoClearMs : undefined),
  run(services, payment) {
    // A MoMo outage (an injected fault) holds the clearing until it ends.
    const until = providerOutage(services, 'momo', `payment ${payment.id}`);
    if (until !== undefined) return { retryAt: until };
    clearMomoPayment(services, payment.id);
  },
});
