import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { newId } from '../../ids.js';
import type { Environment } from '../merchants/records.js';
import { subscribers } from '../webhook-endpoints/domain.js';
import { FIRST_ATTEMPT_DELAY_MS } from '../../webhooks/schedule.js';
import { DELIVERIES } from '../../webhooks/records.js';
import type { EventType } from '../../../contract/common.js';
import type { EventData } from '../../../contract/events.js';

// The durable outbox. An event and one delivery per subscribed endpoint are written in the
// same transaction as the change that caused them (a settled payment, a finished payroll run),
// so an acknowledged change always has its events, and an endpoint deleted before the event
// was created never gets it. Sending is the delivery engine's job (webhooks/engine.ts).

export const EVENTS = storedCollection('events', { by_scope: (e) => `${e.merchant_id}:${e.environment}` });

export type EventRecord = RecordOf<'events'>;

/**
 * Appends an event and its deliveries to the outbox inside `tx`. `data` is typed by the event's
 * schema (contract/events.ts), the one /openapi.yaml's `webhooks` publishes.
 */
export function emitEvent<T extends EventType>(
  services: Pick<Services, 'store' | 'stamps' | 'clock'>,
  tx: Transaction,
  scope: { merchantId: string; environment: Environment },
  type: T,
  data: EventData<T>,
): EventRecord {
  const createdAt = services.stamps.next();
  const event = tx.put(EVENTS, {
    id: newId('evt'),
    merchant_id: scope.merchantId,
    environment: scope.environment,
    type,
    body: JSON.stringify({ type, createdAt, data }),
    created_at: createdAt,
  });
  for (const endpoint of subscribers(services, scope.merchantId, scope.environment, type)) {
    tx.put(DELIVERIES, {
      id: newId('dlv'),
      event_id: event.id,
      endpoint_id: endpoint.id,
      merchant_id: scope.merchantId,
      environment: scope.environment,
      event_type: type,
      status: 'pending',
      attempts: [],
      // The spec's first delay (1 s) is the wait before attempt 1 (webhooks/schedule.ts).
      next_attempt_at: services.clock.now() + FIRST_ATTEMPT_DELAY_MS,
      created_at: createdAt,
    });
  }
  return event;
}
