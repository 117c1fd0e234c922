import { storedCollection, type RecordOf } from '../../store/collection.js';
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError } from '../../errors.js';
import { isoMicros, newId } from '../../ids.js';
import type { Environment } from '../merchants/records.js';

// One-time codes sent "by SMS". The emulator has no SMS gateway: it prints each message on
// its console and keeps it in an inbox the CLI reads (`GET /_emulator/otp/:phone`). A code
// is valid for OTP_VALIDITY_S seconds by the emulator's clock; only the newest code sent to a
// phone for a merchant counts; OTP_MAX_ATTEMPTS wrong codes burn it and lock that phone for
// OTP_LOCK_MS. Wrong tries survive the failed request (ApiError.keeping).

export const OTP_INBOX = storedCollection('otp_inbox', {
  by_phone: (o) => o.phone,
  unspent_by_scope: (o) => (o.spent_at ? undefined : scopeKey({ merchantId: o.merchant_id, environment: o.environment, phone: o.phone, purpose: o.purpose })),
});
export const OTP_LOCKS = storedCollection('otp_locks');
export const OTP_VALIDITY_S = 300;
const OTP_MAX_ATTEMPTS = 5;
const OTP_LOCK_MS = 15 * 60_000;

export type OtpRecord = RecordOf<'otp_inbox'>;

export interface OtpScope {
  merchantId: string;
  environment: Environment;
  phone: string;
  purpose: OtpRecord['purpose'];
}

const scopeKey = (s: OtpScope) => `${s.merchantId}:${s.environment}:${s.purpose}:${s.phone}`;

const iso = isoMicros;

function assertNotLocked(services: Pick<Services, 'store' | 'clock'>, scope: OtpScope): void {
  const lock = services.store.get(OTP_LOCKS, scopeKey(scope));
  if (lock && services.clock.now() < lock.locked_until_ms) {
    throw new ApiError('OTP_LOCKED', `Too many wrong codes for this phone; it is locked until ${iso(lock.locked_until_ms)}.`);
  }
}

/** Sends a fresh code (replacing any earlier one for the same scope) and "texts" it. */
export function sendOtp(services: Pick<Services, 'store' | 'clock' | 'log'>, tx: Transaction, scope: OtpScope): OtpRecord {
  assertNotLocked(services, scope);
  const now = services.clock.now();
  for (const old of services.store.byIndex(OTP_INBOX, 'unspent_by_scope', scopeKey(scope))) tx.put(OTP_INBOX, { ...old, spent_at: iso(now) });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const otp = tx.put(OTP_INBOX, {
    id: newId('otp'),
    phone: scope.phone,
    code,
    purpose: scope.purpose,
    merchant_id: scope.merchantId,
    environment: scope.environment,
    sent_at: iso(now),
    expires_at: iso(now + OTP_VALIDITY_S * 1000),
    failures: 0,
    spent_at: null,
  });
  // The console says a code was sent, not the code: nothing secret reaches it (docker logs, CI
  // logs). It waits in the inbox (GET /_emulator/otp/{phone}, svc emulator otp, the dashboard).
  services.log.notice(`SMS to ${scope.phone}: a ${code.length}-digit code (read it with svc emulator otp ${scope.phone}, or on the dashboard's Approvals & inboxes page)`);
  return otp;
}

/**
 * Spends the newest code of `scope` when `code` matches it. Throws 422 OTP_INVALID (no code
 * waiting, or a wrong one with the tries left), 422 OTP_EXPIRED, or 423 OTP_LOCKED (not 429: the spec tells clients to retry 429).
 */
export function consumeOtp(services: Pick<Services, 'store' | 'clock'>, tx: Transaction, scope: OtpScope, code: string): void {
  assertNotLocked(services, scope);
  const now = services.clock.now();
  const [otp] = services.store.byIndex(OTP_INBOX, 'unspent_by_scope', scopeKey(scope));
  if (!otp) throw new ApiError('OTP_INVALID', 'No code is waiting for this phone; call start to send one.');
  if (now >= Date.parse(otp.expires_at)) throw new ApiError('OTP_EXPIRED', `The code expired at ${otp.expires_at}; call start to send a new one.`);
  const sent = Buffer.from(code);
  const expected = Buffer.from(otp.code);
  const matches = sent.length === expected.length && timingSafeEqual(sent, expected);
  if (matches) {
    tx.put(OTP_INBOX, { ...otp, spent_at: iso(now) });
    return;
  }
  const failures = otp.failures + 1;
  if (failures >= OTP_MAX_ATTEMPTS) {
    const until = now + OTP_LOCK_MS;
    throw new ApiError('OTP_LOCKED', `Wrong code. Too many wrong codes: this code is void and the phone is locked until ${iso(until)}.`).keeping((t) => {
      t.put(OTP_INBOX, { ...otp, failures, spent_at: iso(now) });
      t.put(OTP_LOCKS, { id: scopeKey(scope), locked_until_ms: until });
    });
  }
  const left = OTP_MAX_ATTEMPTS - failures;
  throw new ApiError('OTP_INVALID', `Wrong code; ${left} tr${left === 1 ? 'y' : 'ies'} left.`).keeping((t) => t.put(OTP_INBOX, { ...otp, failures }));
}

/** The phone's inbox, newest first, as the control API shows it. */
export function inbox(services: Pick<Services, 'store'>, phone: string) {
  return services.store
    .byIndex(OTP_INBOX, 'by_phone', phone)
    .map((o) => ({ phone: o.phone, code: o.code, purpose: o.purpose, sent_at: o.sent_at, expires_at: o.expires_at }))
    .reverse();
}
