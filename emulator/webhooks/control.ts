import { z } from 'zod';
import { defineControl, type ControlRoute } from '../control/route.js';
import { advanceToNextDelivery, getDelivery, listEndpointDeliveries, redeliver } from './deliveries.js';
import { clockState } from '../control/routes.js';
import { toPublicDelivery } from './records.js';

// The dashboard's delivery log and its one write, redelivery (spec: "forced back to pending
// from the dashboard, one delivery at a time"). Keyless like every control route.

const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const webhookControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/webhook-endpoints/:id/deliveries',
    summary: "An endpoint's deliveries, newest first (?limit=, default 50, max 500); each with its last attempt",
    query: ListQuery,
    handler: (s, { params, query }) => listEndpointDeliveries(s, params.id, query.limit),
  }),
  defineControl({
    method: 'get',
    path: '/deliveries/:id',
    summary: 'One delivery with every attempt (time, status code, latency, error, first 1 KB of the response)',
    handler: (s, { params }) => toPublicDelivery(getDelivery(s, params.id), true),
  }),
  defineControl({
    method: 'post',
    path: '/deliveries/:id/redeliver',
    summary: 'Put one failed or dead_letter delivery back to pending, same id (409 INVALID_STATE otherwise)',
    body: z.strictObject({}),
    handler: (s, { params }, tx) => redeliver(s, tx, params.id),
  }),
  defineControl({
    method: 'post',
    path: '/clock/advance-to-next-delivery',
    summary: 'Move the clock to the next due webhook attempt (no move when none waits or one is already due); names the deliveries due then',
    body: z.strictObject({}),
    run: (s) => ({ ...advanceToNextDelivery(s), clock: clockState(s) }),
  }),
];
