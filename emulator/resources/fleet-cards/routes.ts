import { defineRoute } from '../../gateway/route.js';
import { redeemFleetCard } from './domain.js';

export const fleetCardRoutes = [
  defineRoute('redeemFleetCard', (ctx, { body }, tx) => redeemFleetCard(ctx, body, tx)),
];
