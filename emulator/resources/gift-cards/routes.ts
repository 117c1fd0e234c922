import { defineRoute } from '../../gateway/route.js';
import { redemptionIdempotency } from '../redemptions/schema.js';
import { redeemGiftCard } from './domain.js';
import { GiftCardRedemption, RedeemGiftCard } from './schema.js';

export const giftCardRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/gift-cards/redeem',
    scope: 'gift_cards:redeem',
    summary: "Redeem from a customer's gift-card wallet; the amount is credited to the merchant's wallet",
    idempotency: redemptionIdempotency,
    body: RedeemGiftCard,
    status: 201,
    response: GiftCardRedemption,
    errors: ['NOT_FOUND', 'INSUFFICIENT_BALANCE'],
    handler: (ctx, { body }, tx) => redeemGiftCard(ctx, body, tx),
  }),
];
