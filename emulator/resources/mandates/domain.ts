import { storedCollection, type RecordOf } from '../../store/collection.js';
import { randomBytes } from 'node:crypto';
import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, invalid, notFound } from '../../errors.js';
import { isoMicros, newId } from '../../ids.js';
import { cardBrand, cardOutcome, normalizeCardNumber, passesLuhn } from '../cards/test-cards.js';
import { findUserByPhone, type UserRecord } from '../users/domain.js';
import { normalizePhone } from '../users/phone.js';
import { checkPin, userPinSubject } from '../users/pin-guard.js';
import type { CardDetails, CreateMandate, MandatePublic } from '../../../contract/resources/mandates.js';
import { findOwn } from '../merchants/own.js';

// Mandates: a customer's standing authorization for a merchant to charge them (charges/).
// A test key's mandate is active at creation; a live one waits in `pending` until the
// customer approves it — by saving a card on {checkout_url}/mandate/{id}, or with their
// wallet phone and PIN on {checkout_url}/wallet-mandate/{id}. The approval functions below
// are what those pages and the control API call; they are the only way to activate a live
// mandate, so an API key alone never can.

export const MANDATES = storedCollection('mandates');

export type MandateRecord = RecordOf<'mandates'>;

/** Composed when shown, so it follows the emulator's address across restarts. */
const mandateApprovalUrl = (services: Pick<Services, 'config'>, m: Pick<MandateRecord, 'id' | 'rail'>) =>
  `${services.config.checkoutUrl}/${m.rail === 'card' ? 'mandate' : 'wallet-mandate'}/${m.id}`;

export function toPublicMandate(services: Pick<Services, 'config'>, m: MandateRecord): MandatePublic {
  return {
    id: m.id,
    rail: m.rail,
    status: m.status,
    customer_ref: m.customer_ref,
    currency: m.currency,
    max_amount_cents: m.max_amount_cents,
    customer_email: m.customer_email,
    customer_phone: m.customer_phone,
    card: m.card ? { brand: m.card.brand, last4: m.card.last4, exp_month: m.card.exp_month, exp_year: m.card.exp_year } : null,
    environment: m.environment,
    approval_url: mandateApprovalUrl(services, m),
    created_at: m.created_at,
    activated_at: m.activated_at,
    revoked_at: m.revoked_at,
  };
}

const isoNow = (services: Pick<Services, 'clock'>) => isoMicros(services.clock.now());

export function createMandate(ctx: MerchantContext, input: CreateMandate, tx: Transaction) {
  // The card rail's rules (USD only, no customer_phone) and the phone's format are the body schema's (contract/resources/mandates.ts).
  let phone: string | null = null;
  let user: UserRecord | undefined;
  if (input.customer_phone !== undefined) {
    phone = normalizePhone(input.customer_phone) ?? null;
    if (!phone) throw invalid('customer_phone', 'is not a phone number (E.164, such as +231770000201)');
    // A test mandate is active at once, so it binds to its wallet now; a live one binds when
    // the customer approves with this phone and their PIN.
    if (ctx.environment === 'test') {
      user = findUserByPhone(ctx.services, phone);
      if (!user) throw invalid('customer_phone', 'no service user has this phone (the fixtures seed the test users)');
    }
  }
  const id = newId('mdt');
  const active = ctx.environment === 'test';
  const mandate = tx.put(MANDATES, {
    id,
    merchant_id: ctx.merchant.id,
    environment: ctx.environment,
    rail: input.rail,
    status: active ? 'active' : 'pending',
    customer_ref: input.customer_ref,
    currency: input.currency,
    max_amount_cents: input.max_amount_cents,
    customer_email: input.customer_email ?? null,
    customer_phone: phone,
    user_id: user?.id ?? null,
    card: null,
    created_at: ctx.services.stamps.next(),
    activated_at: active ? isoNow(ctx.services) : null,
    revoked_at: null,
  });
  const out: { mandate: MandatePublic; approval_url: string; setup_intent_client_secret?: string } = { mandate: toPublicMandate(ctx.services, mandate), approval_url: mandateApprovalUrl(ctx.services, mandate) };
  if (input.rail === 'card') out.setup_intent_client_secret = `seti_${id.slice(4)}_secret_${randomBytes(18).toString('base64url')}`;
  return out;
}

/** A mandate of the caller's merchant and environment; anything else is the same 404. */
export function getOwnMandate(ctx: MerchantContext, id: string): MandateRecord {
  const m = findOwn<MandateRecord>(ctx, MANDATES, id);
  if (!m) throw notFound('mandate');
  return m;
}

/** Revoking stops future charges; revoking again answers the same revoked mandate. */
export function revokeMandate(ctx: MerchantContext, id: string, tx: Transaction): MandatePublic {
  const m = getOwnMandate(ctx, id);
  if (m.status === 'revoked') return toPublicMandate(ctx.services, m);
  return toPublicMandate(ctx.services, tx.put(MANDATES, { ...m, status: 'revoked', revoked_at: isoNow(ctx.services) }));
}

/** For the approval pages: the mandate behind an approval URL, whoever asks. */
export function findMandateForApproval(services: Pick<Services, 'store'>, mandateId: string): MandateRecord | undefined {
  return services.store.get(MANDATES, mandateId);
}

/**
 * Refuses an approval the mandate cannot take. A live mandate is approved once, while
 * pending. A test mandate is already active; its page may still save a card or bind a wallet
 * once, so a developer can exercise decline cards and wallet balances.
 */
function approvable(services: Pick<Services, 'store'>, mandateId: string, rail: MandateRecord['rail']): MandateRecord {
  const m = findMandateForApproval(services, mandateId);
  if (!m) throw notFound('mandate');
  if (m.rail !== rail) throw new ApiError('INVALID_STATE', `Mandate ${m.id} is a ${m.rail} mandate; approve it on its ${m.rail} approval page.`);
  if (m.status === 'revoked') throw new ApiError('INVALID_STATE', `Mandate ${m.id} was revoked; it can no longer be approved.`);
  const done = rail === 'card' ? m.card !== null : m.user_id !== null;
  if (m.status === 'active' && (m.environment === 'live' || done)) throw new ApiError('INVALID_STATE', `Mandate ${m.id} is already approved.`);
  return m;
}

function checkCard(services: Pick<Services, 'clock'>, card: CardDetails): string {
  const number = normalizeCardNumber(card.number);
  if (!passesLuhn(number)) throw invalid('number', 'is not a valid card number');
  if (!Number.isInteger(card.exp_month) || card.exp_month < 1 || card.exp_month > 12) throw invalid('exp_month', 'must be 1 to 12');
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw invalid('exp_year', 'must be a year such as 2030');
  // A card is valid through the last day of its expiry month.
  if (Date.UTC(year, card.exp_month, 1) <= services.clock.now()) throw invalid('exp_year', 'the card has expired');
  if (!/^\d{3,4}$/.test(card.cvc)) throw invalid('cvc', 'must be 3 or 4 digits');
  return number;
}

/** The card approval page: saves the card and activates the mandate. */
export function approveCardMandate(
  services: Services,
  tx: Transaction,
  mandateId: string,
  card: { number: string; exp_month: number; exp_year: number; cvc: string },
): MandatePublic {
  const m = approvable(services, mandateId, 'card');
  const number = checkCard(services, card);
  const saved: MandateRecord['card'] = {
    brand: cardBrand(number),
    last4: number.slice(-4),
    exp_month: card.exp_month,
    exp_year: card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year,
    outcome: cardOutcome(number),
  };
  return toPublicMandate(services, tx.put(MANDATES, { ...m, card: saved, status: 'active', activated_at: m.activated_at ?? isoNow(services) }));
}

/**
 * The wallet app's approval: the customer identifies themselves with phone and PIN, and the
 * mandate binds to their wallet. Wrong PINs count toward the lockout (users/pin-guard.ts).
 */
export function approveWalletMandate(services: Services, tx: Transaction, mandateId: string, input: { phone: string; pin: string }): MandatePublic {
  const m = approvable(services, mandateId, 'wallet');
  const phone = normalizePhone(input.phone);
  if (!phone) throw invalid('phone', 'is not a phone number (E.164, such as +231770000201)');
  if (m.customer_phone !== null && m.customer_phone !== phone) throw invalid('phone', 'this mandate was requested for another phone number');
  const user = findUserByPhone(services, phone);
  if (!user) throw invalid('phone', 'no wallet account has this phone number');
  checkPin(services, tx, userPinSubject(user.id), user.pin_hash, input.pin);
  return toPublicMandate(
    services,
    tx.put(MANDATES, { ...m, user_id: user.id, customer_phone: phone, status: 'active', activated_at: m.activated_at ?? isoNow(services) }),
  );
}
