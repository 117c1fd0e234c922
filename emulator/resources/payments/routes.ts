import { defineRoute } from '../../gateway/route.js';
import { getOwnPayment, listPayments, summarize, toPublicPayment } from './domain.js';
import { ListPaymentsQuery, Payment, PaymentIdParams, PaymentList, PaymentSummary, SummaryQuery } from './schema.js';

// `summary` is declared before `:id` so Express does not read "summary" as a payment id.
export const paymentRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/api/payments/summary',
    scope: 'payments:read',
    summary: 'Per-currency roll-up of payments',
    query: SummaryQuery,
    response: PaymentSummary,
    handler: (ctx, { query }) => summarize(ctx, query),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/payments/:id',
    scope: 'payments:read',
    summary: 'Read a payment (link payment or mandate charge)',
    params: PaymentIdParams,
    response: Payment,
    handler: (ctx, { params }) => toPublicPayment(getOwnPayment(ctx, params.id)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/payments',
    scope: 'payments:read',
    summary: "List payments of the key's environment, newest first",
    query: ListPaymentsQuery,
    response: PaymentList,
    handler: (ctx, { query }) => listPayments(ctx, query),
  }),
];
