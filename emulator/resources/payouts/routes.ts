import { defineRoute } from '../../gateway/route.js';
import { createPayout, getOwnPayout, listPayouts, toPublicPayout } from './domain.js';
import { CreatePayout, ListPayoutsQuery, Payout, PayoutIdParams, PayoutList } from './schema.js';

export const payoutRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/api/payouts',
    scope: 'payouts:create',
    summary: 'Send a payout to an approved payee; the wallet is debited at acceptance',
    business: true,
    idempotency: { header: 'X-Idempotency-Key', required: true },
    body: CreatePayout,
    status: 201,
    response: Payout,
    handler: (ctx, { body }, tx) => createPayout(ctx, body, tx),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/payouts/:id',
    scope: 'payouts:read',
    summary: 'Read a payout (poll it: payouts send no webhook)',
    params: PayoutIdParams,
    response: Payout,
    handler: (ctx, { params }) => toPublicPayout(getOwnPayout(ctx, params.id)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/payouts',
    scope: 'payouts:read',
    summary: "List payouts of the key's environment, newest first",
    query: ListPayoutsQuery,
    response: PayoutList,
    handler: (ctx, { query }) => listPayouts(ctx, query),
  }),
];
