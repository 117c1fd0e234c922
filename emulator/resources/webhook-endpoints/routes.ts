import { defineRoute } from '../../gateway/route.js';
import { createEndpoint, deleteEndpoint, listEndpoints } from './domain.js';

export const webhookEndpointRoutes = [
  defineRoute('createWebhookEndpoint', (ctx, { body }, tx) => createEndpoint(ctx, body, tx)),
  defineRoute('listWebhookEndpoints', (ctx) => listEndpoints(ctx)),
  defineRoute('deleteWebhookEndpoint', (ctx, { params }, tx) => deleteEndpoint(ctx, params.id, tx)),
];
