import type { Express } from 'express';
import type { RouteDef } from './gateway/route.js';
import type { Services } from './services.js';
import type { ControlRoute } from './control/route.js';
import type { AnyCollection } from './store/collection.js';
import { API_KEYS, MERCHANTS } from './resources/merchants/records.js';
import { EVENTS } from './resources/events/outbox.js';
import { WEBHOOK_ENDPOINTS } from './resources/webhook-endpoints/domain.js';
import { PAYMENT_LINKS } from './resources/payment-links/domain.js';
import { PAYMENTS } from './resources/payments/domain.js';
import { WALLETS, WALLET_ENTRIES } from './resources/wallets/domain.js';
import { PAYEES } from './resources/payees/domain.js';
import { PAYOUTS, PAYOUT_PROVIDER } from './resources/payouts/domain.js';
import { GIFT_CARD_WALLETS, GIFT_CARD_TRANSACTIONS } from './resources/gift-cards/domain.js';
import { FLEET_CARDS, FLEET_CARD_TRANSACTIONS } from './resources/fleet-cards/domain.js';
import { USERS, USER_WALLET_ENTRIES } from './resources/users/domain.js';
import { PIN_ATTEMPTS } from './resources/users/pin-guard.js';
import { MANDATES } from './resources/mandates/domain.js';
import { OTP_INBOX, OTP_LOCKS } from './resources/sub-merchants/otp.js';
import { PAYROLL_RUNS } from './resources/payroll/domain.js';
import { CHECKOUT_PAYMENTS } from './pages/checkout-pay.js';
import { FORM_SECRETS, FORM_SUBMISSIONS } from './pages/form-token.js';
import { IDEMPOTENCY } from './gateway/idempotency.js';
import { eventControlRoutes } from './resources/events/control.js';
import { webhookEndpointRoutes } from './resources/webhook-endpoints/routes.js';
import { paymentLinkRoutes } from './resources/payment-links/routes.js';
import { paymentRoutes } from './resources/payments/routes.js';
import { walletControlRoutes } from './resources/wallets/control.js';
import { payeeControlRoutes } from './resources/payees/control.js';
import { payoutResolution } from './resources/payouts/domain.js';
import { payoutRoutes } from './resources/payouts/routes.js';
import { payoutControlRoutes } from './resources/payouts/control.js';
import { giftCardRoutes } from './resources/gift-cards/routes.js';
import { giftCardControlRoutes } from './resources/gift-cards/control.js';
import { fleetCardRoutes } from './resources/fleet-cards/routes.js';
import { fleetCardControlRoutes } from './resources/fleet-cards/control.js';
import { userControlRoutes } from './resources/users/control.js';
import { mandateRoutes } from './resources/mandates/routes.js';
import { mandateControlRoutes } from './resources/mandates/control.js';
import { chargeRoutes } from './resources/charges/routes.js';
import { subMerchantRoutes } from './resources/sub-merchants/routes.js';
import { subMerchantControlRoutes } from './resources/sub-merchants/control.js';
import { payrollRoutes } from './resources/payroll/routes.js';
import { payrollControlRoutes } from './resources/payroll/control.js';
import { momoClearing } from './resources/payments/momo-clearing.js';
import { retentionSweep } from './retention.js';
import { CLOCK_STATE } from './scheduler/clock-record.js';
import type { TimedWork } from './scheduler/work.js';
import { mountCheckoutPages } from './pages/router.js';
import { webhooksModule } from './webhooks/module.js';
import { mountDashboard } from './dashboard/router.js';
import { REQUEST_LOG } from './request-log/records.js';
import { requestLogControlRoutes } from './request-log/control.js';

// Every resource of the emulator, in one list: the store collections it owns, its merchant
// routes, its control routes and its background work. The server defines the collections,
// mounts the routes through the gateway and starts the work; the OpenAPI generator reads them.

export interface ResourceModule {
  name: string;
  /** Merchant routes under /v1, mounted through the gateway. */
  routes: RouteDef[];
  /** Emulator-only dashboard actions, mounted under /_emulator (control/router.ts). */
  control?: ControlRoute[];
  /** The store collections this module owns (their records and indexes: store/collection.ts). */
  collections?: AnyCollection[];
  /**
   * Parts of the world this module keeps beside the store, not in it (the request log:
   * request-log/log.ts): snapshots carry them under these names, and a restore checks them.
   */
  besideStore?: AnyCollection[];
  /** Subscribes to what it reacts to (store commits, world replacement); once, at start. */
  subscribe?(services: Services): void;
  /** HTTP outside /v1 and /_emulator (the live stream); mounted by app.ts before the 404. */
  http?(app: Express, services: Services): void;
  /**
   * Work due at a time on the emulator clock, read from this module's records (scheduler/work.ts):
   * the scheduler runs it, after a restart, a reset or a restore too, with no start-up code here.
   */
  timed?: TimedWork[];
  /** Background work, started once the server listens (server.ts). */
  start?(services: Services): void;
  /** Stops that work on close, before the store closes. */
  stop?(services: Services): Promise<void>;
}

export const resources: ResourceModule[] = [
  { name: 'merchants', collections: [MERCHANTS, API_KEYS], routes: [] },
  { name: 'webhook-endpoints', collections: [WEBHOOK_ENDPOINTS], routes: webhookEndpointRoutes },
  { name: 'events', collections: [EVENTS], routes: [], control: eventControlRoutes },
  { name: 'payment-links', collections: [PAYMENT_LINKS], routes: paymentLinkRoutes },
  // Pending live MoMo payments clear at created_at + --momo-delay.
  { name: 'payments', collections: [PAYMENTS], routes: paymentRoutes, timed: [momoClearing] },
  { name: 'wallets', collections: [WALLETS, WALLET_ENTRIES], routes: [], control: walletControlRoutes },
  { name: 'payees', collections: [PAYEES], routes: [], control: payeeControlRoutes },
  // Processing payouts get the provider's answer at resolves_at_ms.
  { name: 'payouts', collections: [PAYOUTS, PAYOUT_PROVIDER], routes: payoutRoutes, control: payoutControlRoutes, timed: [payoutResolution] },
  { name: 'gift-cards', collections: [GIFT_CARD_WALLETS, GIFT_CARD_TRANSACTIONS], routes: giftCardRoutes, control: giftCardControlRoutes },
  { name: 'fleet-cards', collections: [FLEET_CARDS, FLEET_CARD_TRANSACTIONS], routes: fleetCardRoutes, control: fleetCardControlRoutes },
  { name: 'users', collections: [USERS, USER_WALLET_ENTRIES, PIN_ATTEMPTS], routes: [], control: userControlRoutes },
  { name: 'mandates', collections: [MANDATES], routes: mandateRoutes, control: mandateControlRoutes },
  { name: 'charges', routes: chargeRoutes },
  { name: 'sub-merchants', collections: [OTP_INBOX, OTP_LOCKS], routes: subMerchantRoutes, control: subMerchantControlRoutes },
  { name: 'payroll', collections: [PAYROLL_RUNS], routes: payrollRoutes, control: payrollControlRoutes },
  // The hosted pages at /checkout (their one-time form tokens and the checkout's own payment records).
  { name: 'checkout', collections: [CHECKOUT_PAYMENTS, FORM_SECRETS, FORM_SUBMISSIONS], routes: [], http: mountCheckoutPages },
  // The local dashboard at /dashboard (dashboard/router.ts): pages over the control API.
  { name: 'dashboard', routes: [], http: mountDashboard },
  // Delivery engine and live stream.
  webhooksModule,
  // What the store forgets and when (retention.ts), and where the clock stands (kept with the world).
  { name: 'housekeeping', collections: [CLOCK_STATE], routes: [], timed: [retentionSweep] },
  // Every /v1 request, redacted (request-log/): the log itself is a field of the services
  // (server.ts makes it), kept beside the store; snapshots carry it as `request_log`.
  { name: 'request-log', besideStore: [REQUEST_LOG], routes: [], control: requestLogControlRoutes },
];

/** Every collection of the store, each defined once (a second owner is an error at start). */
export const allCollections = (): AnyCollection[] => [IDEMPOTENCY, ...resources.flatMap((r) => r.collections ?? [])];

/** Every collection of a world snapshot: the store's, and those kept beside it. */
export const worldCollections = (): AnyCollection[] => [...allCollections(), ...resources.flatMap((r) => r.besideStore ?? [])];

/** Every module's timed work, for the scheduler. */
export const allTimedWork = (): TimedWork[] => resources.flatMap((r) => r.timed ?? []);

export const allRoutes = (): RouteDef[] => resources.flatMap((r) => r.routes);
export const resourceControlRoutes = (): ControlRoute[] => resources.flatMap((r) => r.control ?? []);
