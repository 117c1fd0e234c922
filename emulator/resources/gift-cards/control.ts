import { defineControl, type ControlRoute } from '../../control/route.js';
import { giftCardWalletLedger, issueGiftCardWallet, listGiftCardWallets, loadGiftCardWallet } from './domain.js';

// Gift-card issuance is a dashboard action (the merchant API only redeems).

export const giftCardControlRoutes: ControlRoute[] = [
  defineControl('listGiftCardWallets', { handler: (s, { query }) => ({ gift_card_wallets: listGiftCardWallets(s, query.merchant_id, query.environment) }) }),
  defineControl('giftCardWalletTransactions', { handler: (s, { params }) => giftCardWalletLedger(s, params.id) }),
  defineControl('issueGiftCardWallet', { handler: (s, { body }, tx) => issueGiftCardWallet(s, tx, body) }),
  defineControl('loadGiftCardWallet', { handler: (s, { body, params }, tx) => loadGiftCardWallet(s, tx, params.id, body.amount) }),
];
