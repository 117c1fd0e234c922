import { defineRoute } from '../../gateway/route.js';
import { redemptionIdempotency } from '../redemptions/schema.js';
import { redeemFleetCard } from './domain.js';
import { FleetCardRedemption, RedeemFleetCard } from './schema.js';

export const fleetCardRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/fleet-cards/redeem',
    scope: 'fleet_cards:redeem',
    summary: "Redeem a fleet card at a point of sale; the amount is credited to the merchant's wallet",
    idempotency: redemptionIdempotency,
    body: RedeemFleetCard,
    status: 201,
    response: FleetCardRedemption,
    errors: ['NOT_FOUND', 'FLEET_CARD_INACTIVE', 'CATEGORY_NOT_ALLOWED', 'INSUFFICIENT_BALANCE', 'SPEND_LIMIT_EXCEEDED'],
    handler: (ctx, { body }, tx) => redeemFleetCard(ctx, body, tx),
  }),
];
