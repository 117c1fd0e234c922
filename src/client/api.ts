import type { z } from 'zod';
import type * as Links from '../../emulator/resources/payment-links/schema.js';
import type * as Payments from '../../emulator/resources/payments/schema.js';
import type * as Endpoints from '../../emulator/resources/webhook-endpoints/schema.js';
import type * as Mandates from '../../emulator/resources/mandates/schema.js';
import type * as Payouts from '../../emulator/resources/payouts/schema.js';
import type * as Charges from '../../emulator/resources/charges/schema.js';
import type * as SubMerchants from '../../emulator/resources/sub-merchants/schema.js';
import type * as Payroll from '../../emulator/resources/payroll/schema.js';
import type * as GiftCards from '../../emulator/resources/gift-cards/schema.js';
import type * as FleetCards from '../../emulator/resources/fleet-cards/schema.js';
import { HttpClient, newIdempotencyKey, type ApiResult, type ClientOptions } from './http.js';
import { fillPath, ROUTES, type RouteName } from './routes.js';

// The typed client: one method per merchant route. Request and response types are inferred
// from the emulator's zod schemas (type-only imports: nothing of zod loads at run time).

type In<S extends z.ZodType> = z.input<S>;
type Out<S extends z.ZodType> = z.output<S>;
/** Answers whose shape a command does not fix (control API). */
export type Json = Record<string, unknown>;
/** A body whose idempotency_key the client fills in when absent. */
type KeyOptional<T> = Omit<T, 'idempotency_key'> & { idempotency_key?: string };

export interface WriteOptions {
  /** Reused on every retry; a fresh UUID when absent. */
  idempotencyKey?: string;
}

export class SvcApi {
  readonly http: HttpClient;
  constructor(options: ClientOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  private call<T>(name: RouteName, args: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } & WriteOptions = {}) {
    const route = ROUTES[name];
    const idem = 'idempotency' in route ? route.idempotency : undefined;
    return this.http.call<T>({
      method: route.method,
      path: fillPath(route.path, args.params),
      query: args.query,
      body: args.body,
      idempotency: idem ? { header: idem.header, key: args.idempotencyKey ?? newIdempotencyKey() } : undefined,
    });
  }

  // Payment links
  createLink = (body: In<typeof Links.CreatePaymentLink>, o: WriteOptions = {}) => this.call<Out<typeof Links.PaymentLink>>('createLink', { body, ...o });
  getLink = (id: string) => this.call<Out<typeof Links.PaymentLink>>('getLink', { params: { id } });
  getLinkByCode = (code: string) => this.call<Out<typeof Links.PaymentLink>>('getLinkByCode', { params: { code } });
  simulateLink = (id: string, body: In<typeof Links.SimulatePayment>, o: WriteOptions = {}) =>
    this.call<Out<typeof Payments.Payment>>('simulateLink', { params: { id }, body, ...o });

  // Payments
  getPayment = (id: string) => this.call<Out<typeof Payments.Payment>>('getPayment', { params: { id } });
  listPayments = (query: In<typeof Payments.ListPaymentsQuery>) => this.call<Out<typeof Payments.PaymentList>>('listPayments', { query });
  paymentSummary = (query: In<typeof Payments.SummaryQuery>) => this.call<Out<typeof Payments.PaymentSummary>>('paymentSummary', { query });

  // Recurring billing
  createMandate = (body: In<typeof Mandates.CreateMandate>, o: WriteOptions = {}) => this.call<Out<typeof Mandates.CreatedMandate>>('createMandate', { body, ...o });
  getMandate = (id: string) => this.call<Out<typeof Mandates.Mandate>>('getMandate', { params: { id } });
  revokeMandate = (id: string, o: WriteOptions = {}) => this.call<Out<typeof Mandates.Mandate>>('revokeMandate', { params: { id }, ...o });
  /** The body's `idempotency_key` (the merchant's cycle key) and the header carry the same value. */
  createCharge = (body: KeyOptional<In<typeof Charges.CreateCharge>>, o: WriteOptions = {}) => {
    const key = o.idempotencyKey ?? body.idempotency_key ?? newIdempotencyKey();
    return this.call<Out<typeof Payments.Payment>>('createCharge', { body: { ...body, idempotency_key: key }, idempotencyKey: key });
  };

  // Sub-merchants
  startSubMerchant = (body: In<typeof SubMerchants.StartSubMerchant>, o: WriteOptions = {}) =>
    this.call<Out<typeof SubMerchants.StartedSubMerchant>>('startSubMerchant', { body, ...o });
  completeSubMerchant = (body: In<typeof SubMerchants.CompleteSubMerchant>, o: WriteOptions = {}) =>
    this.call<Out<typeof SubMerchants.SubMerchant>>('completeSubMerchant', { body, ...o });
  listSubMerchants = () => this.call<Out<typeof SubMerchants.SubMerchantList>>('listSubMerchants');

  // Payroll
  createPayrollRun = (body: In<typeof Payroll.CreatePayrollRun>, o: WriteOptions = {}) =>
    this.call<Out<typeof Payroll.PayrollRunWithLines>>('createPayrollRun', { body, ...o });
  getPayrollRun = (id: string) => this.call<Out<typeof Payroll.PayrollRunWithLines>>('getPayrollRun', { params: { id } });

  // Payouts
  createPayout = (body: In<typeof Payouts.CreatePayout>, o: WriteOptions = {}) => this.call<Out<typeof Payouts.Payout>>('createPayout', { body, ...o });
  getPayout = (id: string) => this.call<Out<typeof Payouts.Payout>>('getPayout', { params: { id } });
  listPayouts = (query: In<typeof Payouts.ListPayoutsQuery>) => this.call<Out<typeof Payouts.PayoutList>>('listPayouts', { query });

  // Card redemption: the body's idempotency_key is sent in the header too, so retries are safe.
  redeemGiftCard = (body: KeyOptional<In<typeof GiftCards.RedeemGiftCard>>, o: WriteOptions = {}) => {
    const key = o.idempotencyKey ?? body.idempotency_key ?? newIdempotencyKey();
    return this.call<Out<typeof GiftCards.GiftCardRedemption>>('redeemGiftCard', { body: { ...body, idempotency_key: key }, idempotencyKey: key });
  };
  redeemFleetCard = (body: KeyOptional<In<typeof FleetCards.RedeemFleetCard>>, o: WriteOptions = {}) => {
    const key = o.idempotencyKey ?? body.idempotency_key ?? newIdempotencyKey();
    return this.call<Out<typeof FleetCards.FleetCardRedemption>>('redeemFleetCard', { body: { ...body, idempotency_key: key }, idempotencyKey: key });
  };

  // Webhook endpoints
  createWebhookEndpoint = (body: In<typeof Endpoints.CreateWebhookEndpoint>, o: WriteOptions = {}) =>
    this.call<Out<typeof Endpoints.CreatedWebhookEndpoint>>('createWebhookEndpoint', { body, ...o });
  listWebhookEndpoints = () => this.call<Out<typeof Endpoints.WebhookEndpointList>>('listWebhookEndpoints');
  deleteWebhookEndpoint = (id: string, o: WriteOptions = {}) =>
    this.call<Out<typeof Endpoints.DeletedWebhookEndpoint>>('deleteWebhookEndpoint', { params: { id }, ...o });
}

export type { ApiResult };
