import { defineRoute } from '../../gateway/route.js';
import { redeemGiftCard } from './domain.js';

export const giftCardRoutes = [
  defineRoute('redeemGiftCard', (ctx, { body }, tx) => redeemGiftCard(ctx, body, tx)),
];
