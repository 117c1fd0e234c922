import type { Scenario } from '../types.js';
import { auth, crossMerchant, scopes } from './access.js';
import { mandates } from './billing.js';
import { fleetCards, giftCards, payouts, payroll, subMerchants } from './business.js';
import { idempotency } from './idempotency.js';
import { paymentLinks, simulate } from './links.js';
import { pagination, payments } from './payments.js';
import { validation } from './validation.js';
import { webhookDeliveries, webhookEndpoints } from './webhooks.js';

/** The suite, in the order it runs (one merchant's history grows through it: pagination comes after the other payments). */
export const SUITE: Scenario[] = [
  auth,
  scopes,
  crossMerchant,
  paymentLinks,
  simulate,
  payments,
  pagination,
  mandates,
  idempotency,
  validation,
  subMerchants,
  payroll,
  payouts,
  giftCards,
  fleetCards,
  webhookEndpoints,
  webhookDeliveries,
];
