import { defineControl, type ControlRoute } from '../../control/route.js';
import { approveCardMandate, approveWalletMandate } from './domain.js';

// What the customer does on the approval pages, for the CLI and scripts: save a card on a
// card mandate, or approve a wallet mandate with phone and PIN. Same functions as the pages.

export const mandateControlRoutes: ControlRoute[] = [
  defineControl('approveCardMandate', { handler: (s, { params, body }, tx) => approveCardMandate(s, tx, params.id, body) }),
  defineControl('approveWalletMandate', { handler: (s, { params, body }, tx) => approveWalletMandate(s, tx, params.id, body) }),
];
