import { defineRoute } from '../../gateway/route.js';
import { createMandate, getOwnMandate, revokeMandate, toPublicMandate } from './domain.js';
import { CreateMandate, CreatedMandate, Mandate, MandateIdParams } from './schema.js';

export const mandateRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/api/mandates',
    scope: 'payments:create',
    summary: 'Create a mandate (card or wallet rail); test keys get an active mandate, live keys a pending one',
    idempotency: { header: 'X-Idempotency-Key', required: true },
    body: CreateMandate,
    status: 201,
    response: CreatedMandate,
    handler: (ctx, { body }, tx) => createMandate(ctx, body, tx),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/mandates/:id',
    scope: 'payments:read',
    summary: 'Read a mandate',
    params: MandateIdParams,
    response: Mandate,
    handler: (ctx, { params }) => toPublicMandate(ctx, getOwnMandate(ctx, params.id)),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/api/mandates/:id',
    scope: 'payments:create',
    summary: 'Revoke a mandate: future charges answer 422 MANDATE_NOT_ACTIVE',
    idempotency: { header: 'X-Idempotency-Key', required: false },
    params: MandateIdParams,
    response: Mandate,
    handler: (ctx, { params }, tx) => revokeMandate(ctx, params.id, tx),
  }),
];
