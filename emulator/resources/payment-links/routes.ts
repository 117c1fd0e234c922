import { defineRoute } from '../../gateway/route.js';
import { notFound } from '../../schema/errors.js';
import { createPayment, toPublicPayment } from '../payments/domain.js';
import { Payment } from '../payments/schema.js';
import { assertPayable, createLink, getOwnLink, getOwnLinkByCode, toPublicLink } from './domain.js';
import { CreatePaymentLink, LinkCodeParams, LinkIdParams, PaymentLink, SimulatePayment } from './schema.js';

export const paymentLinkRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/api/payment-links',
    scope: 'payments:create',
    summary: 'Create a payment link',
    idempotency: { header: 'X-Idempotency-Key', required: true },
    body: CreatePaymentLink,
    status: 201,
    response: PaymentLink,
    handler: (ctx, { body }, tx) => createLink(ctx, body, tx),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/payment-links/by-code/:code',
    scope: 'payments:read',
    summary: 'Read a payment link by its link code',
    params: LinkCodeParams,
    response: PaymentLink,
    handler: (ctx, { params }) => toPublicLink(getOwnLinkByCode(ctx, params.code), ctx.clock.now()),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/payment-links/:id',
    scope: 'payments:read',
    summary: 'Read a payment link',
    params: LinkIdParams,
    response: PaymentLink,
    handler: (ctx, { params }) => toPublicLink(getOwnLink(ctx, params.id), ctx.clock.now()),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/api/payment-links/:id/simulate',
    scope: 'payments:create',
    summary: 'Test keys only: settle a payment on a link and fire its webhook',
    idempotency: { header: 'X-Idempotency-Key', required: false },
    params: LinkIdParams,
    body: SimulatePayment,
    status: 201,
    response: Payment,
    errors: ['LINK_EXPIRED', 'LINK_CLOSED'],
    handler: (ctx, { params, body }, tx) => {
      // Live links cannot be simulated; the spec answers 404, as if the link did not exist.
      if (ctx.environment === 'live') throw notFound('payment link');
      const link = getOwnLink(ctx, params.id);
      const method = body.method ?? link.accepted_methods[0];
      const amount = assertPayable(link, method, body.amount, ctx.clock.now());
      const payment = createPayment(ctx, tx, {
        merchantId: ctx.merchant.id,
        environment: ctx.environment,
        amount,
        currency: link.currency,
        method,
        status: body.outcome ?? 'completed',
        link,
        idempotencyKey: ctx.idempotencyKey,
      });
      return toPublicPayment(payment);
    },
  }),
];
