import { z } from 'zod';
import { defineControl, type ControlRoute } from '../../control/route.js';
import { Environment, MinorUnits, WalletCurrency } from '../../../contract/common.js';
import { notFound } from '../../errors.js';
import { creditUser, USERS, findUserByPhone, toControlUser } from './domain.js';

const TopUp = z.strictObject({ environment: Environment, currency: WalletCurrency, amount: MinorUnits });

// The wallet app's side of the world, for the CLI and tests: who the service users are and
// what their wallets hold (with the ledger), so a charge or payroll line can be seen landing.

export const userControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/users',
    summary: 'Service users with their per-environment wallet balances',
    handler: (s) => ({ users: [...s.store.all(USERS)].map((u) => toControlUser(s, u)) }),
  }),
  defineControl({
    method: 'get',
    path: '/users/:phone',
    summary: 'One service user by phone, with wallet balances and ledger entries',
    handler: (s, { params }) => {
      const user = findUserByPhone(s, params.phone);
      if (!user) throw notFound('user with this phone');
      return toControlUser(s, user);
    },
  }),
  defineControl({
    method: 'post',
    path: '/users/:phone/top-up',
    summary: "Add money to a service user's wallet (a cash-in at an agent, in the real app)",
    body: TopUp,
    handler: (s, { params, body }, tx) => {
      const user = findUserByPhone(s, params.phone);
      if (!user) throw notFound('user with this phone');
      creditUser(s, tx, user.id, body.environment, body.currency, body.amount, 'top_up');
      return toControlUser(s, s.store.get(USERS, user.id)!);
    },
  }),
];
