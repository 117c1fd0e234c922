import type { Services } from '../services.js';
import type { AttemptOutcome } from '../webhooks/sender.js';
import { latencyOf, type Fault } from './set.js';

// Delivery faults, applied by the webhook engine to one attempt (webhooks/engine.ts launch):
//
//   duplicate  the attempt is sent twice, same Svc-Delivery, each with a fresh signature
//              (delivery is at least once: receivers dedupe on Svc-Delivery)
//   drop       the attempt never reaches the receiver, as if the network lost it; it counts
//              as a failed attempt and is retried on the spec's schedule
//   delay      the attempt leaves `latency` later (emulator clock; its log entry shows when it left)
//   reorder    the attempt leaves after a random wait up to the `latency` window, so
//              deliveries made close together arrive in another order
//
// Each firing is in the fault log and the emulator's log, like an API fault.

export function takeDeliveryFault(services: Services, eventType: string, endpointId: string): Fault | undefined {
  return services.faults.take(
    (f) => f.deliveries !== undefined && (f.deliveries.event_type === undefined || f.deliveries.event_type === eventType) && (f.deliveries.endpoint_id === undefined || f.deliveries.endpoint_id === endpointId),
  );
}

const DROPPED = (f: Fault): AttemptOutcome => ({
  ok: false,
  status_code: null,
  latency_ms: 0,
  error: `dropped by injected fault ${f.id} (the attempt never reached the receiver)`,
  response_excerpt: '',
  aborted: false,
});

/**
 * One attempt under a delivery fault (logged here, when it fires): `drop` and `duplicate` answer
 * with the attempt's outcome (`send` sends it once, with a fresh signature each call); `delay`
 * and `reorder` answer with how long the attempt waits on the emulator clock before it leaves.
 * The engine does that wait (webhooks/engine.ts), so a clock advance is never held by it.
 */
export function applyDeliveryFault(services: Services, f: Fault, deliveryId: string, send: () => Promise<AttemptOutcome>): { waitMs: number } | { outcome: Promise<AttemptOutcome> } {
  const wait = f.kind === 'delay' || f.kind === 'reorder' ? latencyOf(f.kind === 'reorder' ? { latency: { min: 0, max: f.latency!.max } } : f, services.faults.random(f.id)) : undefined;
  const detail = `${f.id} ${f.kind}${wait !== undefined ? `=${wait}ms` : ''}`;
  services.faults.record({ fault_id: f.id, kind: f.kind, target: `delivery ${deliveryId}`, after_commit: false, detail });
  services.log.notice(`[fault] ${detail} on delivery ${deliveryId}`);
  switch (f.kind) {
    case 'drop':
      return { outcome: Promise.resolve(DROPPED(f)) };
    case 'duplicate':
      return {
        outcome: (async () => {
          const first = await send();
          if (first.aborted) return first;
          // The copy's answer is not recorded (the delivery has one attempt); coverage counts a 2xx.
          if ((await send()).ok) services.coverage.signal('duplicate');
          return first;
        })(),
      };
    default:
      return { waitMs: wait! };
  }
}
