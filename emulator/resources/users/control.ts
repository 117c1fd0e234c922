import { defineControl, type ControlRoute } from '../../control/route.js';
import { notFound } from '../../schema/errors.js';
import { USERS, findUserByPhone, toControlUser, type UserRecord } from './domain.js';

// The wallet app's side of the world, for the CLI and tests: who the service users are and
// what their wallets hold (with the ledger), so a charge or payroll line can be seen landing.

export const userControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/users',
    summary: 'Service users with their per-environment wallet balances',
    handler: (s) => ({ users: [...s.store.all<UserRecord>(USERS)].map((u) => toControlUser(s, u)) }),
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
];
