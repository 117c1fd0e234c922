import { DELIVERIES } from '../../webhooks/records.js';
import { z } from 'zod';
import { defineControl, type ControlRoute } from '../../control/route.js';
import { Environment, EventType } from '../../../contract/common.js';
import { notFound } from '../../errors.js';
import type { Services } from '../../services.js';
import { EVENTS, type EventRecord } from './outbox.js';
import { TriggerEventBody, triggerEvent } from './catalog-inventory.js';
import { isoMicros } from '../../ids.js';

// The outbox as the dashboard sees it: which events were appended, and the deliveries each
// one fanned out to. Read-only; sending and redelivery belong to the webhook engine.

export const EventsQuery = z.strictObject({
  merchant_id: z.string().min(1).optional(),
  environment: Environment.optional(),
  type: EventType.optional(),
});

/** An event as the control API shows it; `body` is the exact JSON text every delivery sends. */
const toControlEvent = (e: EventRecord) => ({
  id: e.id,
  type: e.type,
  environment: e.environment,
  merchant_id: e.merchant_id,
  created_at: e.created_at,
  body: e.body,
});

export function listEvents(services: Pick<Services, 'store'>, query: z.infer<typeof EventsQuery>) {
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
  defineControl({
    method: 'get',
    path: '/events',
    summary: 'Events in the outbox, oldest first (filter by merchant_id, environment, type)',
    query: EventsQuery,
    handler: (s, { query }) => listEvents(s, query),
  }),
  defineControl({
    method: 'get',
    path: '/events/:id/deliveries',
    summary: 'The deliveries an event fanned out to, one per subscribed endpoint',
    handler: (s, { params }) => eventDeliveries(s, params.id),
  }),
  defineControl({
    method: 'post',
    path: '/events/trigger',
    summary:
      'Emit catalog.published or inventory.low_stock for a merchant (the dashboard side nothing in the API causes) through the outbox: signed deliveries on the usual schedule',
    body: TriggerEventBody,
    status: 201,
    handler: (s, { body }, tx) => triggerEvent(s, tx, body),
  }),
];
