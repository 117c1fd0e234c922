import { defineControl, type ControlRoute } from '../control/route.js';
import { advanceToNextDelivery, getDelivery, listEndpointDeliveries, redeliver } from './deliveries.js';
import { clockState } from '../control/routes.js';
import { toPublicDelivery } from './records.js';
import { endpointSecret } from '../resources/webhook-endpoints/domain.js';

// The dashboard's delivery log and its one write, redelivery (spec: "forced back to pending
// from the dashboard, one delivery at a time"). Keyless like every control route.

export const webhookControlRoutes: ControlRoute[] = [
  defineControl('endpointDeliveries', { handler: (s, { params, query }) => listEndpointDeliveries(s, params.id, query.limit) }),
  defineControl('endpointSecret', { handler: (s, { params }) => endpointSecret(s, params.id) }),
  defineControl('delivery', { handler: (s, { params }) => toPublicDelivery(getDelivery(s, params.id), true) }),
  defineControl('redeliver', { handler: (s, { params }, tx) => redeliver(s, tx, params.id) }),
  defineControl('advanceToNextDelivery', { run: async (s) => ({ ...(await advanceToNextDelivery(s)), clock: clockState(s) }) }),
];
