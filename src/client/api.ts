import type { BodyOf, QueryOf, ResponseOf } from '../../contract/route-schemas.js';
import { fillPath, ROUTES, type RouteName } from '../../contract/routes.js';
import { HttpClient, newIdempotencyKey, type ApiResult, type ClientOptions } from './http.js';

// The typed client: one method per merchant route of the contract (contract/routes.ts). Each
// call's request and response types are inferred from the route's zod schemas under the same
// name (type-only: nothing of zod loads at run time), so no method picks its types by hand.

/** Answers whose shape a command does not fix (control API). */
export type Json = Record<string, unknown>;
/** A body whose idempotency_key the client fills in when absent. */
type KeyOptional<T> = Omit<T, 'idempotency_key'> & { idempotency_key?: string };

interface WriteOptions {
  /** Reused on every retry; a fresh UUID when absent. */
  idempotencyKey?: string;
}

export class SvcApi {
  readonly http: HttpClient;
  constructor(options: ClientOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  private call<N extends RouteName>(name: N, args: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } & WriteOptions = {}): Promise<ApiResult<ResponseOf<N>>> {
    const route = ROUTES[name];
    const idem = 'idempotency' in route ? route.idempotency : undefined;
    // Every write carries a key, also where the route makes it optional: a retry is then safe.
    return this.http.call<ResponseOf<N>>({
      method: route.method,
      path: fillPath(route.path, args.params),
      query: args.query,
      body: args.body,
      idempotency: idem ? { header: idem.header, key: args.idempotencyKey ?? newIdempotencyKey() } : undefined,
    });
  }

  // Payment links
  createLink = (body: BodyOf<'createLink'>, o: WriteOptions = {}) => this.call('createLink', { body, ...o });
  getLink = (id: string) => this.call('getLink', { params: { id } });
  getLinkByCode = (code: string) => this.call('getLinkByCode', { params: { code } });
  simulateLink = (id: string, body: BodyOf<'simulateLink'>, o: WriteOptions = {}) =>
    this.call('simulateLink', { params: { id }, body, ...o });

  // Payments
  getPayment = (id: string) => this.call('getPayment', { params: { id } });
  listPayments = (query: QueryOf<'listPayments'>) => this.call('listPayments', { query });
  paymentSummary = (query: QueryOf<'paymentSummary'>) => this.call('paymentSummary', { query });

  // Recurring billing
  createMandate = (body: BodyOf<'createMandate'>, o: WriteOptions = {}) => this.call('createMandate', { body, ...o });
  getMandate = (id: string) => this.call('getMandate', { params: { id } });
  revokeMandate = (id: string, o: WriteOptions = {}) => this.call('revokeMandate', { params: { id }, ...o });
  /** The body's `idempotency_key` (the merchant's cycle key) and the header carry the same value. */
  createCharge = (body: KeyOptional<BodyOf<'createCharge'>>, o: WriteOptions = {}) => {
    const key = o.idempotencyKey ?? body.idempotency_key ?? newIdempotencyKey();
    return this.call('createCharge', { body: { ...body, idempotency_key: key }, idempotencyKey: key });
  };

  // Sub-merchants
  startSubMerchant = (body: BodyOf<'startSubMerchant'>, o: WriteOptions = {}) =>
    this.call('startSubMerchant', { body, ...o });
  completeSubMerchant = (body: BodyOf<'completeSubMerchant'>, o: WriteOptions = {}) =>
    this.call('completeSubMerchant', { body, ...o });
  listSubMerchants = () => this.call('listSubMerchants');

  // Payroll
  createPayrollRun = (body: BodyOf<'createPayrollRun'>, o: WriteOptions = {}) =>
    this.call('createPayrollRun', { body, ...o });
  getPayrollRun = (id: string) => this.call('getPayrollRun', { params: { id } });

  // Payouts
  createPayout = (body: BodyOf<'createPayout'>, o: WriteOptions = {}) => this.call('createPayout', { body, ...o });
  getPayout = (id: string) => this.call('getPayout', { params: { id } });
  listPayouts = (query: QueryOf<'listPayouts'>) => this.call('listPayouts', { query });

  // Card redemption: the body's idempotency_key is sent in the header too, so retries are safe.
  redeemGiftCard = (body: KeyOptional<BodyOf<'redeemGiftCard'>>, o: WriteOptions = {}) => {
    const key = o.idempotencyKey ?? body.idempotency_key ?? newIdempotencyKey();
    return this.call('redeemGiftCard', { body: { ...body, idempotency_key: key }, idempotencyKey: key });
  };
  redeemFleetCard = (body: KeyOptional<BodyOf<'redeemFleetCard'>>, o: WriteOptions = {}) => {
    const key = o.idempotencyKey ?? body.idempotency_key ?? newIdempotencyKey();
    return this.call('redeemFleetCard', { body: { ...body, idempotency_key: key }, idempotencyKey: key });
  };

  // Webhook endpoints
  createWebhookEndpoint = (body: BodyOf<'createWebhookEndpoint'>, o: WriteOptions = {}) =>
    this.call('createWebhookEndpoint', { body, ...o });
  listWebhookEndpoints = () => this.call('listWebhookEndpoints');
  deleteWebhookEndpoint = (id: string, o: WriteOptions = {}) =>
    this.call('deleteWebhookEndpoint', { params: { id }, ...o });
}

export type { ApiResult };
