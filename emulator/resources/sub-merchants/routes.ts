import { defineRoute } from '../../gateway/route.js';
import { completeSubMerchant, listSubMerchants, startSubMerchant } from './domain.js';
import { CompleteSubMerchant, StartedSubMerchant, StartSubMerchant, SubMerchant, SubMerchantList } from './schema.js';

export const subMerchantRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/api/sub-merchants/start',
    scope: 'sub_merchants:create',
    business: true,
    summary: "Send an OTP to the future sub-merchant manager's phone",
    idempotency: { header: 'X-Idempotency-Key', required: false },
    body: StartSubMerchant,
    response: StartedSubMerchant,
    errors: ['OTP_LOCKED'],
    handler: (ctx, { body }, tx) => startSubMerchant(ctx, body, tx),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/api/sub-merchants/complete',
    scope: 'sub_merchants:create',
    business: true,
    summary: 'Create the sub-merchant with the OTP read back from the manager',
    idempotency: { header: 'X-Idempotency-Key', required: false },
    body: CompleteSubMerchant,
    status: 201,
    response: SubMerchant,
    errors: ['OTP_INVALID', 'OTP_EXPIRED', 'OTP_LOCKED'],
    handler: (ctx, { body }, tx) => completeSubMerchant(ctx, body, tx),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/sub-merchants',
    scope: 'sub_merchants:read',
    business: true,
    summary: "List the merchant's sub-merchants (of the key's environment)",
    response: SubMerchantList,
    handler: (ctx) => listSubMerchants(ctx),
  }),
];
