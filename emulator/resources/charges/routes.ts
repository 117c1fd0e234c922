import { defineRoute } from '../../gateway/route.js';
import { createCharge } from './domain.js';

export const chargeRoutes = [
  // 404: mandate_id names no mandate of the caller's (a body reference, but the spec's 404 rule).
  defineRoute('createCharge', (ctx, { body }, tx) => createCharge(ctx, body, tx)),
];
