import type { z } from 'zod';
import { CreateCharge } from './resources/charges.js';
import { FleetCardRedemption, RedeemFleetCard } from './resources/fleet-cards.js';
import { GiftCardRedemption, RedeemGiftCard } from './resources/gift-cards.js';
import { CreateMandate, CreatedMandate, Mandate, MandateIdParams } from './resources/mandates.js';
import { CreatePaymentLink, LinkCodeParams, LinkIdParams, PaymentLink, SimulatePayment } from './resources/payment-links.js';
import { ListPaymentsQuery, Payment, PaymentIdParams, PaymentList, PaymentSummary, SummaryQuery } from './resources/payments.js';
import { CreatePayout, ListPayoutsQuery, Payout, PayoutIdParams, PayoutList } from './resources/payouts.js';
import { CreatePayrollRun, PayrollRunIdParams, PayrollRunWithLines } from './resources/payroll.js';
import { CompleteSubMerchant, StartSubMerchant, StartedSubMerchant, SubMerchant, SubMerchantList } from './resources/sub-merchants.js';
import { CreateWebhookEndpoint, CreatedWebhookEndpoint, DeletedWebhookEndpoint, IdParams, WebhookEndpointList } from './resources/webhook-endpoints.js';
import type { RouteName } from './routes.js';

// The zod schemas of every route in routes.ts, under the same names: what the gateway validates
// (body, query, path parameters) and the shape of `data` in the success envelope. The emulator's
// handlers are typed by them (emulator/gateway/route.ts), the client's methods infer their
// request and response types from them (type-only imports: the CLI loads no zod for this), and
// the OpenAPI document is generated from them.

export interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
}

export const ROUTE_SCHEMAS = {
  createCharge: { body: CreateCharge, response: Payment },
  redeemFleetCard: { body: RedeemFleetCard, response: FleetCardRedemption },
  redeemGiftCard: { body: RedeemGiftCard, response: GiftCardRedemption },
  createMandate: { body: CreateMandate, response: CreatedMandate },
  getMandate: { params: MandateIdParams, response: Mandate },
  revokeMandate: { params: MandateIdParams, response: Mandate },
  createLink: { body: CreatePaymentLink, response: PaymentLink },
  getLinkByCode: { params: LinkCodeParams, response: PaymentLink },
  getLink: { params: LinkIdParams, response: PaymentLink },
  simulateLink: { body: SimulatePayment, params: LinkIdParams, response: Payment },
  paymentSummary: { query: SummaryQuery, response: PaymentSummary },
  getPayment: { params: PaymentIdParams, response: Payment },
  listPayments: { query: ListPaymentsQuery, response: PaymentList },
  createPayout: { body: CreatePayout, response: Payout },
  getPayout: { params: PayoutIdParams, response: Payout },
  listPayouts: { query: ListPayoutsQuery, response: PayoutList },
  createPayrollRun: { body: CreatePayrollRun, response: PayrollRunWithLines },
  getPayrollRun: { params: PayrollRunIdParams, response: PayrollRunWithLines },
  startSubMerchant: { body: StartSubMerchant, response: StartedSubMerchant },
  completeSubMerchant: { body: CompleteSubMerchant, response: SubMerchant },
  listSubMerchants: { response: SubMerchantList },
  createWebhookEndpoint: { body: CreateWebhookEndpoint, response: CreatedWebhookEndpoint },
  listWebhookEndpoints: { response: WebhookEndpointList },
  deleteWebhookEndpoint: { params: IdParams, response: DeletedWebhookEndpoint },
} as const satisfies Record<RouteName, RouteSchemas>;

// What one route's schemas S (of this table or the control API's, contract/control/schemas.ts) give:
/** The `data` of its success envelope. */
export type ResponseIn<S extends RouteSchemas> = z.output<S['response']>;
/** Its request body (or query: K) as a caller writes it (defaults not yet applied). */
export type InputIn<S, K extends 'body' | 'query'> = S extends { [P in K]: infer Z extends z.ZodType } ? z.input<Z> : never;
/** The parsed value of one part of the request, or undefined when the route declares no schema for it. */
export type ParsedIn<S, K extends keyof RouteSchemas> = S extends { [P in K]: infer Z extends z.ZodType } ? z.output<Z> : undefined;

export type ResponseOf<N extends RouteName> = ResponseIn<(typeof ROUTE_SCHEMAS)[N]>;
export type BodyOf<N extends RouteName> = InputIn<(typeof ROUTE_SCHEMAS)[N], 'body'>;
export type QueryOf<N extends RouteName> = InputIn<(typeof ROUTE_SCHEMAS)[N], 'query'>;
