import { DELIVERIES } from '../../webhooks/records.js';
import { defineControl, type ControlRoute } from '../../control/route.js';
import { notFound } from '../../errors.js';
import type { Services } from '../../services.js';
import { EVENTS, type EventRecord } from './outbox.js';
import { triggerEvent } from './catalog-inventory.js';
import type { z } from 'zod';
import type { EventsQuery } from '../../../contract/control/webhooks.js';
import { isoMicros } from '../../ids.js';

// The outbox as the dashboard sees it: which events were appended, and the deliveries each
// one fanned out to. Read-only; sending and redelivery belong to the webhook engine.

/** An event as the control API shows it; `body` is the exact JSON text every delivery sends. */
const toControlEvent = (e: EventRecord) => ({
  id: e.id,
  type: e.type,
  environment: e.environment,
  merchant_id: e.merchant_id,
  created_at: e.created_at,
  body: e.body,
});

export function listEvents(services: Pick<Services, 'store'>, query: z.output<typeof EventsQuery>) {
  // With both merchant and environment the scope index answers; otherwise scan (a dashboard view).
  const rows =
    query.merchant_id !== undefined && query.environment !== undefined
      ? services.store.byIndex(EVENTS, 'by_scope', `${query.merchant_id}:${query.environment}`)
      : [...services.store.all(EVENTS)].filter(
          (e) => (query.merchant_id === undefined || e.merchant_id === query.merchant_id) && (query.environment === undefined || e.environment === query.environment),
        );
  const events = rows.filter((e) => query.type === undefined || e.type === query.type).sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  return { events: events.map(toControlEvent) };
}

function eventDeliveries(services: Pick<Services, 'store'>, eventId: string) {
  if (!services.store.get(EVENTS, eventId)) throw notFound('event');
  const deliveries = services.store.byIndex(DELIVERIES, 'by_event', eventId);
  return {
    deliveries: deliveries.map((d) => ({
      id: d.id,
      event_id: d.event_id,
      endpoint_id: d.endpoint_id,
      event_type: d.event_type,
      status: d.status,
      attempts: d.attempts,
      next_attempt_at: d.next_attempt_at === null ? null : isoMicros(d.next_attempt_at),
      created_at: d.created_at,
    })),
  };
}

export const eventControlRoutes: ControlRoute[] = [
  defineControl('listEvents', { handler: (s, { query }) => listEvents(s, query) }),
  defineControl('eventDeliveries', { handler: (s, { params }) => eventDeliveries(s, params.id) }),
  defineControl('triggerEvent', { handler: (s, { body }, tx) => triggerEvent(s, tx, body) }),
];
