import type { Transaction } from '../../store/store.js';
import { storedCollection } from '../../store/collection.js';
import type { Services } from '../../services.js';
import { ApiError } from '../../errors.js';
import { verifyPin } from '../merchants/pin.js';
import { isoMicros } from '../../ids.js';

// PIN checks with a lockout, for every interactive approval: a customer approving a wallet
// mandate, a business owner approving a payroll run (and payees, caps). Wrong tries are
// counted per person (`user:<id>`, `owner:<merchant id>`), not per approval, so guessing
// cannot move on to the next run. The count survives the failed request (the error carries
// the write, see CarriesSurvivingWrites) and a restart (it is a store record).

export const PIN_ATTEMPTS = storedCollection('pin_attempts');
/** Wrong tries in a row before the PIN locks; the last one answers 423 PIN_LOCKED. */
const PIN_MAX_ATTEMPTS = 5;
/** How long a lock lasts, by the emulator's clock; the count starts again after it. */
const PIN_LOCK_MS = 15 * 60_000;

export const userPinSubject = (userId: string) => `user:${userId}`;
export const ownerPinSubject = (merchantId: string) => `owner:${merchantId}`;

/**
 * Returns when `pin` matches `pinHash`; otherwise throws 422 PIN_INVALID (with the tries
 * left) or, on the last allowed try and during the lock, 423 PIN_LOCKED. A right PIN clears
 * the count; a right PIN during the lock is refused too.
 */
export function checkPin(services: Pick<Services, 'store' | 'clock' | 'coverage'>, tx: Transaction, subject: string, pinHash: string | undefined, pin: string): void {
  const now = services.clock.now();
  const state = services.store.get(PIN_ATTEMPTS, subject);
  const locked = state?.locked_until_ms != null && now < state.locked_until_ms;
  if (locked) {
    throw new ApiError('PIN_LOCKED', `Too many wrong PINs; PIN entry is locked until ${isoMicros(state.locked_until_ms!)}.`);
  }
  // A lock that has run out starts the count again.
  const before = state && state.locked_until_ms === null ? state.failures : 0;
  if (verifyPin(pin, pinHash)) {
    if (state) tx.delete(PIN_ATTEMPTS, subject);
    services.coverage.signal('pinApproved');
    return;
  }
  services.coverage.signal('pinRejected');
  const failures = before + 1;
  if (failures >= PIN_MAX_ATTEMPTS) {
    const until = now + PIN_LOCK_MS;
    throw new ApiError('PIN_LOCKED', `Wrong PIN. Too many wrong PINs; PIN entry is locked until ${isoMicros(until)}.`).keeping((tx) =>
      tx.put(PIN_ATTEMPTS, { id: subject, failures, locked_until_ms: until }),
    );
  }
  const left = PIN_MAX_ATTEMPTS - failures;
  throw new ApiError('PIN_INVALID', `Wrong PIN; ${left} attempt${left === 1 ? '' : 's'} left before PIN entry locks for ${PIN_LOCK_MS / 60_000} minutes.`).keeping((tx) =>
    tx.put(PIN_ATTEMPTS, { id: subject, failures, locked_until_ms: null }),
  );
}
