import { defineRoute } from '../../gateway/route.js';
import { Payment } from '../payments/schema.js';
import { createCharge } from './domain.js';
import { CreateCharge } from './schema.js';

export const chargeRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/api/charges',
    scope: 'payments:create',
    summary: 'Charge a mandate; returns the payment synchronously (a decline is a failed payment, not an error)',
    idempotency: { header: 'X-Idempotency-Key', required: true },
    body: CreateCharge,
    status: 201,
    response: Payment,
    // 404: mandate_id names no mandate of the caller's (a body reference, but the spec's 404 rule).
    errors: ['NOT_FOUND', 'MANDATE_NOT_ACTIVE'],
    handler: (ctx, { body }, tx) => createCharge(ctx, body, tx),
  }),
];
