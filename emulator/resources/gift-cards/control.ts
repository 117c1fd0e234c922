import { defineControl, type ControlRoute } from '../../control/route.js';
import { giftCardWalletLedger, issueGiftCardWallet, listGiftCardWallets, loadGiftCardWallet } from './domain.js';
import { GiftCardWalletQuery, IssueGiftCardWallet, LoadGiftCardWallet } from '../../../contract/resources/gift-cards.js';

// Gift-card issuance is a dashboard action (the merchant API only redeems).

export const giftCardControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/gift-card-wallets',
    summary: "A merchant's gift-card wallets (?merchant_id=&environment=)",
    query: GiftCardWalletQuery,
    handler: (s, { query }) => ({ gift_card_wallets: listGiftCardWallets(s, query.merchant_id, query.environment) }),
  }),
  defineControl({
    method: 'get',
    path: '/gift-card-wallets/:id/transactions',
    summary: 'A gift-card wallet with its transactions (issue, load, redemption; signed amounts that sum to the balance)',
    handler: (s, { params }) => giftCardWalletLedger(s, params.id),
  }),
  defineControl({
    method: 'post',
    path: '/gift-card-wallets',
    summary: 'Issue a gift-card wallet (a customer pocket at a merchant) with an opening balance',
    body: IssueGiftCardWallet,
    status: 201,
    handler: (s, { body }, tx) => issueGiftCardWallet(s, tx, body),
  }),
  defineControl({
    method: 'post',
    path: '/gift-card-wallets/:id/load',
    summary: 'Load money onto a gift-card wallet',
    body: LoadGiftCardWallet,
    handler: (s, { body, params }, tx) => loadGiftCardWallet(s, tx, params.id, body.amount),
  }),
];
