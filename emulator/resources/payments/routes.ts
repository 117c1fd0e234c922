import { defineRoute } from '../../gateway/route.js';
import { getOwnPayment, listPayments, summarize, toPublicPayment } from './domain.js';

// `summary` is declared before `:id` so Express does not read "summary" as a payment id.
export const paymentRoutes = [
  defineRoute('paymentSummary', (ctx, { query }) => summarize(ctx, query)),
  defineRoute('getPayment', (ctx, { params }) => toPublicPayment(getOwnPayment(ctx, params.id))),
  defineRoute('listPayments', (ctx, { query }) => listPayments(ctx, query)),
];
