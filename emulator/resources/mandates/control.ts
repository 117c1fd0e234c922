import { defineControl, type ControlRoute } from '../../control/route.js';
import { approveCardMandate, approveWalletMandate } from './domain.js';
import { CardDetails, WalletApproval } from '../../../contract/resources/mandates.js';

// What the customer does on the approval pages, for the CLI and scripts: save a card on a
// card mandate, or approve a wallet mandate with phone and PIN. Same functions as the pages.

export const mandateControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'post',
    path: '/mandates/:id/approve-card',
    summary: 'Save a card on a card mandate and activate it (the card approval page)',
    body: CardDetails,
    handler: (s, { params, body }, tx) => approveCardMandate(s, tx, params.id, body),
  }),
  defineControl({
    method: 'post',
    path: '/mandates/:id/approve-wallet',
    summary: "Approve a wallet mandate with the customer's phone and PIN (the wallet app)",
    body: WalletApproval,
    handler: (s, { params, body }, tx) => approveWalletMandate(s, tx, params.id, body),
  }),
];
