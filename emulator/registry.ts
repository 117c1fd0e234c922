import type { Express } from 'express';
import type { RouteDef } from './gateway/route.js';
import type { Services } from './services.js';
import type { ControlRoute } from './control/route.js';
import { defineKeyIndexes } from './resources/merchants/records.js';
import { defineOutboxIndexes } from './resources/events/outbox.js';
import { eventControlRoutes } from './resources/events/control.js';
import { defineEndpointIndexes } from './resources/webhook-endpoints/domain.js';
import { webhookEndpointRoutes } from './resources/webhook-endpoints/routes.js';
import { defineLinkIndexes } from './resources/payment-links/domain.js';
import { paymentLinkRoutes } from './resources/payment-links/routes.js';
import { definePaymentIndexes } from './resources/payments/domain.js';
import { paymentRoutes } from './resources/payments/routes.js';
import { defineWalletIndexes } from './resources/wallets/domain.js';
import { walletControlRoutes } from './resources/wallets/control.js';
import { definePayeeIndexes } from './resources/payees/domain.js';
import { payeeControlRoutes } from './resources/payees/control.js';
import { definePayoutIndexes, resumePayouts } from './resources/payouts/domain.js';
import { payoutRoutes } from './resources/payouts/routes.js';
import { payoutControlRoutes } from './resources/payouts/control.js';
import { defineGiftCardIndexes } from './resources/gift-cards/domain.js';
import { giftCardRoutes } from './resources/gift-cards/routes.js';
import { giftCardControlRoutes } from './resources/gift-cards/control.js';
import { defineFleetCardIndexes } from './resources/fleet-cards/domain.js';
import { fleetCardRoutes } from './resources/fleet-cards/routes.js';
import { fleetCardControlRoutes } from './resources/fleet-cards/control.js';
import { defineUserIndexes } from './resources/users/domain.js';
import { userControlRoutes } from './resources/users/control.js';
import { mandateRoutes } from './resources/mandates/routes.js';
import { mandateControlRoutes } from './resources/mandates/control.js';
import { defineChargeIndexes } from './resources/charges/domain.js';
import { chargeRoutes } from './resources/charges/routes.js';
import { defineSubMerchantIndexes } from './resources/sub-merchants/domain.js';
import { subMerchantRoutes } from './resources/sub-merchants/routes.js';
import { subMerchantControlRoutes } from './resources/sub-merchants/control.js';
import { payrollRoutes } from './resources/payroll/routes.js';
import { payrollControlRoutes } from './resources/payroll/control.js';
import { resumeMomoClearing } from './pages/momo-clearing.js';
import { mountCheckoutPages } from './pages/router.js';
import { defineCheckoutIndexes } from './pages/checkout-pay.js';
import { webhooksModule } from './webhooks/module.js';
import { mountDashboard } from './dashboard/router.js';

// Every resource of the emulator, in one list: its merchant routes and the store indexes it
// needs. The server mounts these routes through the gateway; the OpenAPI generator reads them.

export interface ResourceModule {
  name: string;
  /** Merchant routes under /v1, mounted through the gateway. */
  routes: RouteDef[];
  /** Emulator-only dashboard actions, mounted under /_emulator (control/router.ts). */
  control?: ControlRoute[];
  /** Declares store indexes and registers hooks; runs once at start, before fixtures load. */
  setup?(services: Services): void;
  /** HTTP outside /v1 and /_emulator (the live stream); mounted by app.ts before the 404. */
  http?(app: Express, services: Services): void;
  /** Background work, started once the server listens (server.ts). */
  start?(services: Services): void;
  /** Stops that work on close, before the store closes. */
  stop?(services: Services): Promise<void>;
}

export const resources: ResourceModule[] = [
  { name: 'merchants', routes: [], setup: defineKeyIndexes },
  { name: 'webhook-endpoints', routes: webhookEndpointRoutes, setup: defineEndpointIndexes },
  { name: 'events', routes: [], control: eventControlRoutes, setup: defineOutboxIndexes },
  { name: 'payment-links', routes: paymentLinkRoutes, setup: defineLinkIndexes },
  { name: 'payments', routes: paymentRoutes, setup: definePaymentIndexes },
  { name: 'wallets', routes: [], control: walletControlRoutes, setup: defineWalletIndexes },
  { name: 'payees', routes: [], control: payeeControlRoutes, setup: definePayeeIndexes },
  // Once listening, processing payouts get their provider answer re-armed (or resolved if due).
  { name: 'payouts', routes: payoutRoutes, control: payoutControlRoutes, setup: definePayoutIndexes, start: resumePayouts },
  { name: 'gift-cards', routes: giftCardRoutes, control: giftCardControlRoutes, setup: defineGiftCardIndexes },
  { name: 'fleet-cards', routes: fleetCardRoutes, control: fleetCardControlRoutes, setup: defineFleetCardIndexes },
  { name: 'users', routes: [], control: userControlRoutes, setup: defineUserIndexes },
  { name: 'mandates', routes: mandateRoutes, control: mandateControlRoutes },
  { name: 'charges', routes: chargeRoutes, setup: defineChargeIndexes },
  { name: 'sub-merchants', routes: subMerchantRoutes, control: subMerchantControlRoutes, setup: defineSubMerchantIndexes },
  { name: 'payroll', routes: payrollRoutes, control: payrollControlRoutes },
  // The hosted pages at /checkout; once listening, pending checkout MoMo payments are re-armed.
  { name: 'checkout', routes: [], setup: defineCheckoutIndexes, http: mountCheckoutPages, start: resumeMomoClearing },
  // The local dashboard at /dashboard (dashboard/router.ts): pages over the control API.
  { name: 'dashboard', routes: [], http: mountDashboard },
  // Delivery engine and live stream: last, so every index they read is defined.
  webhooksModule,
];

export const allRoutes = (): RouteDef[] => resources.flatMap((r) => r.routes);
export const resourceControlRoutes = (): ControlRoute[] => resources.flatMap((r) => r.control ?? []);
