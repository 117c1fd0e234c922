import { defineRoute } from '../../gateway/route.js';
import { createMandate, getOwnMandate, revokeMandate, toPublicMandate } from './domain.js';

export const mandateRoutes = [
  defineRoute('createMandate', (ctx, { body }, tx) => createMandate(ctx, body, tx)),
  defineRoute('getMandate', (ctx, { params }) => toPublicMandate(ctx.services, getOwnMandate(ctx, params.id))),
  defineRoute('revokeMandate', (ctx, { params }, tx) => revokeMandate(ctx, params.id, tx)),
];
