import { defineRoute } from '../../gateway/route.js';
import { createPayout, getOwnPayout, listPayouts, toPublicPayout } from './domain.js';

export const payoutRoutes = [
  defineRoute('createPayout', (ctx, { body }, tx) => createPayout(ctx, body, tx)),
  defineRoute('getPayout', (ctx, { params }) => toPublicPayout(getOwnPayout(ctx, params.id))),
  defineRoute('listPayouts', (ctx, { query }) => listPayouts(ctx, query)),
];
