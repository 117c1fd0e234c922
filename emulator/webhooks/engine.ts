import { DELIVERIES } from './records.js';
import type { Services } from '../services.js';
import type { TimerHandle } from '../clock.js';
import type { Op } from '../store/memory-store.js';
import { EVENTS } from '../resources/events/outbox.js';
import { WEBHOOK_ENDPOINTS, type EndpointRecord } from '../resources/webhook-endpoints/domain.js';
import { signPayload } from '../../contract/signature.js';
import { attemptHeaders, attemptsInRound, isScheduled, SCHEDULED_KEY, type DeliveryRecord, type StoredAttempt } from './records.js';
import { cancelEndpointDeliveries } from './deliveries.js';
import { delayAfterFailure } from './schedule.js';
import { Sender, type AttemptOutcome } from './sender.js';
import { Fifo } from './fifo.js';
import { isoMicros } from '../ids.js';
import { attemptWithFault, takeDeliveryFault } from '../faults/delivery.js';

// The delivery engine: turns the outbox's deliveries into signed POSTs on the schedule.
//
// It learns about work only from the store: at start it schedules every delivery in the
// `webhooks_scheduled` index, then follows the commit feed (a new event's deliveries, a
// redelivery, its own recorded attempts). A delivery is due at `next_attempt_at` on the
// emulator clock; a due one waits in its endpoint's queue until a slot frees.
//
// Concurrency is bounded twice: MAX_IN_FLIGHT attempts overall, and PER_ENDPOINT_IN_FLIGHT per
// endpoint, served round-robin, so one slow or dead endpoint holds at most its own slots and
// never delays the others.
//
// Durability: an attempt is recorded (attempt log + next state) in a store transaction after
// it finishes; results finishing in the same tick share one transaction. An attempt in
// flight when the engine stops is aborted and not recorded, so after a restart the delivery
// is still due and is sent again (delivery is at least once; receivers dedupe on Svc-Delivery).

export const MAX_IN_FLIGHT = 64;
export const PER_ENDPOINT_IN_FLIGHT = 8;

interface Finished {
  deliveryId: string;
  startedAt: number;
  outcome: AttemptOutcome;
  /** The Svc-Signature header this attempt sent (kept so the dashboard can show it); none when nothing was sent. */
  signature?: string;
}

export class DeliveryEngine {
  private running = false;
  private unsubscribe: (() => void) | undefined;
  private sender = new Sender();
  /** delivery id -> its clock timer, while it waits for a future time */
  private readonly timers = new Map<string, TimerHandle>();
  /** endpoint id -> due delivery ids, oldest first */
  private readonly ready = new Map<string, Fifo<string>>();
  private readonly queued = new Set<string>();
  /** endpoints with due deliveries and a free slot, in round-robin order */
  private readonly runnable = new Fifo<string>();
  private readonly runnableSet = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly busy = new Map<string, number>();
  private finished: Finished[] = [];
  private flushScheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly services: Services) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.services.store.onCommit((ops) => this.onCommit(ops));
    // Everything waiting for an attempt. A delivery of an endpoint deleted while the engine
    // was down is cancelled when it comes up (launch), never sent.
    for (const d of this.services.store.byIndex(DELIVERIES, 'scheduled', SCHEDULED_KEY)) this.track(d);
    this.pump();
  }

  /**
   * Resolves once no attempt is due, on the wire or waiting to be recorded: the signal a test
   * waits on instead of "nothing arrived after 30 ms". Attempts waiting for a later time on the
   * clock do not count (advance the clock, then wait again); a stopped engine is idle.
   */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((ok) => this.idleWaiters.push(ok));
  }

  private isIdle(): boolean {
    return !this.running || (this.inFlight.size === 0 && this.queued.size === 0 && this.finished.length === 0 && !this.flushScheduled);
  }

  private wakeIdleWaiters(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const ok of waiters) ok();
  }

  /** Stops sending: in-flight attempts are aborted (not recorded), finished ones are recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    for (const handle of this.timers.values()) this.services.clock.cancel(handle);
    this.timers.clear();
    this.ready.clear();
    this.queued.clear();
    this.runnable.clear();
    this.runnableSet.clear();
    this.sender.abortAll();
    await Promise.all(this.inFlight.values());
    this.recordFinished();
    this.wakeIdleWaiters();
    await this.sender.close();
    this.sender = new Sender(); // a later start() gets fresh connections
  }

  private onCommit(ops: readonly Op[]): void {
    for (const op of ops) {
      if (op.c === DELIVERIES.name) {
        if (op.v) this.track(op.v as DeliveryRecord);
        else this.untrack(op.id);
      } else if (op.c === WEBHOOK_ENDPOINTS.name && (op.v as EndpointRecord | undefined)?.deleted_at) {
        // Not inside the commit that deleted it: a write from a commit listener would reach the
        // other listeners (the live stream) before the commit that caused it.
        const endpointId = op.id;
        queueMicrotask(() => this.cancelFor(endpointId));
      }
    }
  }

  private cancelFor(endpointId: string): void {
    if (!this.running) return;
    this.services.store.transaction((tx) => cancelEndpointDeliveries(this.services, tx, endpointId));
  }

  /** Follows a delivery's latest state: schedule it, or forget it. */
  private track(d: DeliveryRecord): void {
    this.untrack(d.id);
    if (!isScheduled(d)) return;
    // The attempt on the wire records the outcome against the latest state, which then
    // schedules the next one; a second concurrent attempt must not start.
    if (this.inFlight.has(d.id)) return;
    const due = d.next_attempt_at!;
    if (due <= this.services.clock.now()) return this.enqueue(d.id, d.endpoint_id);
    this.timers.set(
      d.id,
      this.services.clock.at(due, () => {
        this.timers.delete(d.id);
        this.enqueue(d.id, d.endpoint_id);
      }),
    );
  }

  private untrack(id: string): void {
    const handle = this.timers.get(id);
    if (handle) {
      this.services.clock.cancel(handle);
      this.timers.delete(id);
    }
    // A queued id that is no longer due is skipped when it reaches the front (see launch).
    this.queued.delete(id);
  }

  private enqueue(deliveryId: string, endpointId: string): void {
    if (!this.running || this.queued.has(deliveryId)) return;
    this.queued.add(deliveryId);
    let q = this.ready.get(endpointId);
    if (!q) this.ready.set(endpointId, (q = new Fifo()));
    q.push(deliveryId);
    this.markRunnable(endpointId);
    this.pump();
  }

  private markRunnable(endpointId: string): void {
    if (this.runnableSet.has(endpointId)) return;
    if (!this.ready.get(endpointId)?.size) return;
    if ((this.busy.get(endpointId) ?? 0) >= PER_ENDPOINT_IN_FLIGHT) return;
    this.runnableSet.add(endpointId);
    this.runnable.push(endpointId);
  }

  /** Starts attempts while there are free slots: one per runnable endpoint per turn. */
  private pump(): void {
    while (this.running && this.inFlight.size < MAX_IN_FLIGHT && this.runnable.size > 0) {
      const endpointId = this.runnable.shift()!;
      this.runnableSet.delete(endpointId);
      const q = this.ready.get(endpointId)!;
      const deliveryId = q.shift()!;
      if (q.size === 0) this.ready.delete(endpointId);
      if (this.queued.delete(deliveryId)) this.launch(deliveryId);
      this.markRunnable(endpointId);
    }
    this.wakeIdleWaiters();
  }

  private launch(deliveryId: string): void {
    const { store, clock, config } = this.services;
    const d = store.get(DELIVERIES, deliveryId);
    if (!d || !isScheduled(d) || d.next_attempt_at! > clock.now() || this.inFlight.has(deliveryId)) return;
    const endpoint = store.get(WEBHOOK_ENDPOINTS, d.endpoint_id);
    const event = store.get(EVENTS, d.event_id);
    if (!endpoint || endpoint.deleted_at) {
      // Deleted endpoint whose cancel has not run yet: never send; cancel (outside any commit).
      queueMicrotask(() => this.cancelFor(d.endpoint_id));
      return;
    }
    if (!event) {
      // The outbox writes an event and its deliveries in one transaction; this is damage.
      this.services.log.warn(`webhooks: delivery ${d.id} has no event ${d.event_id}; not sent`);
      return;
    }
    const startedAt = clock.now();
    this.busy.set(endpoint.id, (this.busy.get(endpoint.id) ?? 0) + 1);
    // A fresh t on every attempt; wall-clock seconds, so receivers' tolerance checks pass
    // even after `svc emulator clock advance` (docs/spec-gaps.md).
    let signature = '';
    const send = () => {
      signature = signPayload(endpoint.secret, event.body, Math.floor(Date.now() / 1000));
      return this.sender.send({ url: endpoint.url, body: event.body, headers: attemptHeaders(event.type, d.id, signature), timeoutMs: config.webhookTimeoutMs });
    };
    // An injected delivery fault (faults/delivery.ts) may drop, delay or duplicate the attempt.
    const fault = this.services.faults.empty ? undefined : takeDeliveryFault(this.services, event.type, endpoint.id);
    const attempt = (fault ? attemptWithFault(this.services, fault, d.id, send) : send())
      .then((outcome) => {
        this.inFlight.delete(deliveryId);
        const left = (this.busy.get(endpoint.id) ?? 1) - 1;
        if (left > 0) this.busy.set(endpoint.id, left);
        else this.busy.delete(endpoint.id);
        if (outcome.aborted) return; // stopping: the attempt counts as not made
        this.finished.push({ deliveryId, startedAt, outcome, signature });
        this.scheduleRecord();
        this.markRunnable(endpoint.id);
        this.pump();
      });
    this.inFlight.set(deliveryId, attempt);
  }

  private scheduleRecord(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.recordFinished();
      this.wakeIdleWaiters();
    });
  }

  /** Writes every finished attempt and the next state of its delivery, in one transaction. */
  private recordFinished(): void {
    const batch = this.finished;
    if (batch.length === 0) return;
    this.finished = [];
    const { store, clock, stamps } = this.services;
    try {
      store.transaction((tx) => {
        for (const f of batch) {
          const d = store.get(DELIVERIES, f.deliveryId);
          if (!d) continue;
          const now = clock.now();
          const cursor = stamps.next();
          let status = d.status;
          let nextAttemptAt: number | null = d.next_attempt_at;
          if (!isScheduled(d)) {
            // Cancelled while on the wire: the attempt happened, the status stays.
          } else if (f.outcome.ok) {
            status = 'succeeded';
            nextAttemptAt = null;
          } else {
            const wait = delayAfterFailure(attemptsInRound(d) + 1);
            status = wait === null ? 'dead_letter' : 'failed';
            nextAttemptAt = wait === null ? null : now + wait;
          }
          const attempt: StoredAttempt = {
            attempt: d.attempts.length + 1,
            at: isoMicros(f.startedAt),
            status_code: f.outcome.status_code,
            latency_ms: f.outcome.latency_ms,
            error: f.outcome.error,
            response_excerpt: f.outcome.response_excerpt,
            signature: f.signature,
            cursor,
            delivery_status: status,
          };
          tx.put(DELIVERIES, { ...d, status, next_attempt_at: nextAttemptAt, attempts: [...d.attempts, attempt], updated_at: cursor });
        }
      });
    } catch (err) {
      // The store refused the write: nothing was recorded, so the deliveries are still due.
      this.services.log.warn(`webhooks: could not record ${batch.length} attempt(s): ${(err as Error).message}`);
      for (const f of batch) {
        const d = store.get(DELIVERIES, f.deliveryId);
        if (d && this.running) this.track(d);
      }
    }
  }
}
