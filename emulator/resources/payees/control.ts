import { defineControl, type ControlRoute } from '../../control/route.js';
import { addPayee, approvePayee, listPayees, revokePayee, setPayeeCaps } from './domain.js';

// The dashboard's payee actions (svc emulator payees …). Loopback only, never with a key.

export const payeeControlRoutes: ControlRoute[] = [
  defineControl('listPayees', { handler: (s, { query }) => ({ payees: listPayees(s, query.merchant_id, query.environment) }) }),
  defineControl('addPayee', { handler: (s, { body }, tx) => addPayee(s, tx, body) }),
  defineControl('approvePayee', { handler: (s, { body, params }, tx) => approvePayee(s, tx, params.id, body.pin) }),
  defineControl('revokePayee', { handler: (s, { params }, tx) => revokePayee(s, tx, params.id) }),
  defineControl('setPayeeCaps', { handler: (s, { body, params }, tx) => setPayeeCaps(s, tx, params.id, body) }),
];
