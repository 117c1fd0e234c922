import { defineControl, type ControlRoute } from '../../control/route.js';
import { notFound } from '../../errors.js';
import { creditUser, USERS, findUserByPhone, toControlUser } from './domain.js';

// The wallet app's side of the world, for the CLI and tests: who the service users are and
// what their wallets hold (with the ledger), so a charge or payroll line can be seen landing.

export const userControlRoutes: ControlRoute[] = [
  defineControl('listUsers', { handler: (s) => ({ users: [...s.store.all(USERS)].map((u) => toControlUser(s, u)) }) }),
  defineControl('user', {
    handler: (s, { params }) => {
      const user = findUserByPhone(s, params.phone);
      if (!user) throw notFound('user with this phone');
      return toControlUser(s, user);
    },
  }),
  defineControl('topUpUser', {
    handler: (s, { params, body }, tx) => {
      const user = findUserByPhone(s, params.phone);
      if (!user) throw notFound('user with this phone');
      creditUser(s, tx, user.id, body.environment, body.currency, body.amount, 'top_up');
      return toControlUser(s, s.store.get(USERS, user.id)!);
    },
  }),
];
