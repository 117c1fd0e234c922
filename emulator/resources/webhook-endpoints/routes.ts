import { defineRoute } from '../../gateway/route.js';
import { createEndpoint, deleteEndpoint, listEndpoints } from './domain.js';
import { CreatedWebhookEndpoint, CreateWebhookEndpoint, DeletedWebhookEndpoint, IdParams, WebhookEndpointList } from './schema.js';

const optionalKey = { header: 'X-Idempotency-Key', required: false } as const;

export const webhookEndpointRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/api/webhook-endpoints',
    scope: 'payments:create',
    summary: 'Register a webhook endpoint (the secret is returned once)',
    idempotency: optionalKey,
    body: CreateWebhookEndpoint,
    status: 201,
    response: CreatedWebhookEndpoint,
    handler: (ctx, { body }, tx) => createEndpoint(ctx, body, tx),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/api/webhook-endpoints',
    scope: 'payments:read',
    summary: "List the key environment's webhook endpoints",
    response: WebhookEndpointList,
    handler: (ctx) => listEndpoints(ctx),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/api/webhook-endpoints/:id',
    scope: 'payments:create',
    summary: 'Revoke a webhook endpoint',
    idempotency: optionalKey,
    params: IdParams,
    response: DeletedWebhookEndpoint,
    handler: (ctx, { params }, tx) => deleteEndpoint(ctx, params.id, tx),
  }),
];
