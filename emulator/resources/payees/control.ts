import { defineControl, type ControlRoute } from '../../control/route.js';
import { addPayee, approvePayee, listPayees, revokePayee, setPayeeCaps } from './domain.js';
import { AddPayee, ApprovePayee, PayeeListQuery, SetPayeeCaps } from '../../../contract/resources/payees.js';

// The dashboard's payee actions (svc emulator payees …). Loopback only, never with a key.

export const payeeControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/payees',
    summary: "A merchant's payees (?merchant_id=&environment=)",
    query: PayeeListQuery,
    handler: (s, { query }) => ({ payees: listPayees(s, query.merchant_id, query.environment) }),
  }),
  defineControl({
    method: 'post',
    path: '/payees',
    summary: 'Add a payee; it waits in pending_approval until the owner approves it',
    body: AddPayee,
    status: 201,
    handler: (s, { body }, tx) => addPayee(s, tx, body),
  }),
  defineControl({
    method: 'post',
    path: '/payees/:id/approve',
    summary: "Approve a payee with the owner's PIN",
    body: ApprovePayee,
    handler: (s, { body, params }, tx) => approvePayee(s, tx, params.id, body.pin),
  }),
  defineControl({
    method: 'post',
    path: '/payees/:id/revoke',
    summary: 'Revoke a payee; later payouts to it are refused',
    handler: (s, { params }, tx) => revokePayee(s, tx, params.id),
  }),
  defineControl({
    method: 'post',
    path: '/payees/:id/caps',
    summary: "Set a payee's caps; raising one needs the owner's PIN",
    body: SetPayeeCaps,
    handler: (s, { body, params }, tx) => setPayeeCaps(s, tx, params.id, body),
  }),
];
