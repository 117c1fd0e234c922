import { defineRoute } from '../../gateway/route.js';
import { notFound } from '../../errors.js';
import { createPayment, toPublicPayment } from '../payments/domain.js';
import { assertPayable, createLink, getOwnLink, getOwnLinkByCode, toPublicLink } from './domain.js';

export const paymentLinkRoutes = [
  defineRoute('createLink', (ctx, { body }, tx) => createLink(ctx, body, tx)),
  defineRoute('getLinkByCode', (ctx, { params }) => toPublicLink(getOwnLinkByCode(ctx, params.code), ctx.services.clock.now())),
  defineRoute('getLink', (ctx, { params }) => toPublicLink(getOwnLink(ctx, params.id), ctx.services.clock.now())),
  defineRoute('simulateLink', (ctx, { params, body }, tx) => {
    // Live links cannot be simulated; the spec answers 404, as if the link did not exist.
    if (ctx.environment === 'live') throw notFound('payment link');
    const link = getOwnLink(ctx, params.id);
    const method = body.method ?? link.accepted_methods[0];
    const amount = assertPayable(link, method, body.amount, ctx.services.clock.now());
    const payment = createPayment(ctx.services, tx, {
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
  }),
];
