import { defineControl, type ControlRoute } from '../../control/route.js';
import { WALLET_ENTRIES_DEFAULT } from '../../../contract/control/dashboard.js';
import { merchantOr404 } from '../merchants/records.js';
import type { Services } from '../../services.js';
import { credit, walletId, walletsOf, WALLET_ENTRIES } from './domain.js';

// The dashboard's wallet view and top-up: read a merchant's balances with their ledger, and
// add money from outside (a bank transfer on the real dashboard) as a `top_up` entry.

/** Each wallet with its balance, its entry count and sum, and its newest `limit` entries. */
export function walletView(services: Pick<Services, 'store'>, merchantId: string, environment: string | undefined, limit: number) {
  merchantOr404(services, merchantId);
  const wallets = walletsOf(services, merchantId).filter((w) => environment === undefined || w.environment === environment);
  return {
    merchant_id: merchantId,
    wallets: wallets.map((w) => {
      const entries = services.store.byIndex(WALLET_ENTRIES, 'by_wallet', w.id);
      return {
        id: w.id,
        environment: w.environment,
        currency: w.currency,
        balance: w.balance,
        entry_count: entries.length,
        entry_sum: entries.reduce((sum, e) => sum + e.amount, 0),
        entries: entries
          .slice(Math.max(entries.length - limit, 0))
          .reverse()
          .map((e) => ({ id: e.id, amount: e.amount, reason: e.reason, ref: e.ref, created_at: e.created_at })),
      };
    }),
  };
}

export const walletControlRoutes: ControlRoute[] = [
  defineControl('wallets', { handler: (s, { query }) => walletView(s, query.merchant_id, query.environment, query.entries ?? WALLET_ENTRIES_DEFAULT) }),
  defineControl('topUpWallet', {
    handler: (s, { body }, tx) => {
      merchantOr404(s, body.merchant_id);
      const scope = { merchantId: body.merchant_id, environment: body.environment, currency: body.currency };
      const wallet = credit(s, tx, scope, body.amount, 'top_up');
      return { id: walletId(scope), environment: wallet.environment, currency: wallet.currency, balance: wallet.balance };
    },
  }),
];
