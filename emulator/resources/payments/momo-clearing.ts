import type { Services } from '../../services.js';
import { whenProviderUp } from '../../faults/provider.js';
import { parseMicros } from '../../ids.js';
import { applyOutcome, PAYMENTS, type PaymentRecord } from './domain.js';

// The live MoMo path of the state table: a mobile-money payment made on a live link's checkout
// is `pending` until the provider clears it, `config.momoClearMs` later on the emulator's clock.
// Clearing goes through `applyOutcome`, like every settlement: link totals, the merchant's
// wallet and the `payment.completed` webhook follow. Timers do not survive a restart, so at
// start every pending checkout MoMo payment is scheduled again (already due: cleared at once).

export function scheduleMomoClearing(services: Services, payment: PaymentRecord): void {
  const dueAt = Math.floor(parseMicros(payment.created_at) / 1000) + services.config.momoClearMs;
  // A MoMo outage (an injected fault) holds the clearing until it ends.
  services.clock.at(dueAt, () => whenProviderUp(services, 'momo', `payment ${payment.id}`, () => clearMomoPayment(services, payment.id)));
}

function clearMomoPayment(services: Services, paymentId: string): void {
  services.store.transaction((tx) => {
    const payment = services.store.get(PAYMENTS, paymentId);
    // Cleared already (a duplicate timer after a restart) or gone: nothing to do.
    if (!payment || payment.status !== 'pending') return;
    applyOutcome(services, tx, payment, 'completed');
  });
}

export function isClearingMomo(payment: PaymentRecord): boolean {
  return payment.status === 'pending' && payment.payment_method === 'momo' && payment.payment_link_id !== null;
}

/** The registry's `start` hook: runs once the emulator listens, with the store loaded. */
export function resumeMomoClearing(services: Services): void {
  for (const payment of services.store.all(PAYMENTS)) {
    if (isClearingMomo(payment)) scheduleMomoClearing(services, payment);
  }
}
