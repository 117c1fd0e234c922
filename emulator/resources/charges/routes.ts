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
    errors: ['MANDATE_NOT_ACTIVE'],
    handler: (ctx, { body }, tx) => createCharge(ctx, body, tx),
  }),
];
