import type { MerchantContext } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, invalid } from '../../errors.js';
import { newId } from '../../ids.js';
import { MERCHANTS, subScope, type Environment, type MerchantRecord } from '../merchants/records.js';
import { findUserByPhone, USERS } from '../users/domain.js';
import { maskPhone, normalizePhone } from '../users/phone.js';
import { consumeOtp, OTP_VALIDITY_S, sendOtp, type OtpScope } from './otp.js';
import type { CompleteSubMerchant, StartSubMerchant, SubMerchantPublic } from '../../../contract/resources/sub-merchants.js';

// Sub-merchants: merchant records with a `parent_id`, one level deep, created by the parent's
// key after the manager proves their phone with an OTP. They have no keys of their own; a
// payment link naming one settles to its wallet (wallets/domain.ts). Like every resource they
// belong to one environment: a test key's sub-merchants are invisible to the live key.

export interface SubMerchantRecord extends MerchantRecord {
  parent_id: string;
  environment: Environment;
  /** The service user behind the manager's phone, when there is one. */
  manager_user_id: string | null;
}


export const toPublicSubMerchant = (m: MerchantRecord): SubMerchantPublic => ({ id: m.id, merchant_name: m.name, created_at: m.created_at });

/** One level only: a sub-merchant's key (if one ever existed) cannot add sub-merchants. */
function assertCanHaveSubMerchants(ctx: MerchantContext): void {
  if (ctx.merchant.parent_id) throw new ApiError('FORBIDDEN', 'A sub-merchant cannot have sub-merchants; only one level of hierarchy exists.');
}

function managerScope(ctx: MerchantContext, rawPhone: string): OtpScope {
  const phone = normalizePhone(rawPhone);
  if (!phone) throw invalid('manager_phone', 'is not a phone number (E.164, such as +231770000201)');
  return { merchantId: ctx.merchant.id, environment: ctx.environment, phone, purpose: 'sub_merchant' };
}

export function startSubMerchant(ctx: MerchantContext, input: StartSubMerchant, tx: Transaction) {
  assertCanHaveSubMerchants(ctx);
  const scope = managerScope(ctx, input.manager_phone);
  sendOtp(ctx.services, tx, scope);
  return { masked_phone: maskPhone(scope.phone), expires_in_seconds: OTP_VALIDITY_S };
}

export function completeSubMerchant(ctx: MerchantContext, input: CompleteSubMerchant, tx: Transaction): SubMerchantPublic {
  assertCanHaveSubMerchants(ctx);
  const scope = managerScope(ctx, input.manager_phone);
  consumeOtp(ctx.services, tx, scope, input.otp);
  // "The phone's account becomes a business account."
  const manager = findUserByPhone(ctx.services, scope.phone);
  if (manager && !manager.business) tx.put(USERS, { ...manager, business: true });
  const sub = tx.put(MERCHANTS, {
    id: newId('mer'),
    name: input.merchant_name,
    // Inherits the parent's business standing (and its approved KYC, which the emulator does not model).
    business: true,
    owner_phone: scope.phone,
    parent_id: ctx.merchant.id,
    environment: ctx.environment,
    manager_user_id: manager?.id ?? null,
    created_at: ctx.services.stamps.next(),
  });
  return toPublicSubMerchant(sub);
}

export function listSubMerchants(ctx: MerchantContext) {
  return { sub_merchants: ctx.services.store.byIndex(MERCHANTS, 'sub_by_parent', subScope(ctx.merchant.id, ctx.environment)).map(toPublicSubMerchant) };
}
