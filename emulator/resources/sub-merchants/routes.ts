import { defineRoute } from '../../gateway/route.js';
import { completeSubMerchant, listSubMerchants, startSubMerchant } from './domain.js';

export const subMerchantRoutes = [
  defineRoute('startSubMerchant', (ctx, { body }, tx) => startSubMerchant(ctx, body, tx)),
  defineRoute('completeSubMerchant', (ctx, { body }, tx) => completeSubMerchant(ctx, body, tx)),
  defineRoute('listSubMerchants', (ctx) => listSubMerchants(ctx)),
];
