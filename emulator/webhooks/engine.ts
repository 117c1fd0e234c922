import { DELIVERIES } from './records.js';
import type { Services } from '../services.js';
import type { TimerHandle } from '../scheduler/scheduler.js';
import { RETRY_AFTER_FAILURE_MS } from '../scheduler/scheduler.js';
import { recordWork } from '../scheduler/work.js';
import type { Op } from '../store/memory-store.js';
import type { Transaction } from '../store/store.js';
import { EVENTS } from '../resources/events/outbox.js';
import { WEBHOOK_ENDPOINTS, type EndpointRecord } from '../resources/webhook-endpoints/domain.js';
import { signPayload } from '../../contract/signature.js';
import { attemptsInRound, isScheduled, SCHEDULED_KEY, type StoredAttempt } from './records.js';
import { cancelEndpointDeliveries } from './deliveries.js';
import { delayAfterFailure } from './schedule.js';
import { attemptHeaders } from '../../contract/delivery-headers.js';
import { Sender, type AttemptOutcome } from './sender.js';
import { Fifo } from './fifo.js';
import { isoMicros } from '../ids.js';
import { applyDeliveryFault, takeDeliveryFault } from '../faults/delivery.js';
import { messageOf } from '../../contract/errors.js';

// The delivery engine: turns the outbox's deliveries into signed POSTs on the schedule.
//
// It does not keep time itself: a delivery is due at its `next_attempt_at` on the emulator
// clock, and the scheduler (scheduler/scheduler.ts) reads that from the store and calls
// `attempt()` then (see `webhookAttempts` below). A due delivery waits in its endpoint's queue
// until a slot frees; the promise `attempt()` returns settles once the attempt is recorded, so a
// clock advance records each attempt at its own time before it moves on to the next.
//
// Concurrency is bounded twice: MAX_IN_FLIGHT attempts overall, and PER_ENDPOINT_IN_FLIGHT per
// endpoint, served round-robin, so one slow or dead endpoint holds at most its own slots and
// never delays the others.
//
// Durability: an attempt is written as started (the delivery's `started_at`) before a byte of it
// is sent, and recorded (attempt log + next state, marker cleared) once it finishes; the starts
// and results of one tick share one store transaction. A start that was never recorded — the
// process was killed or stopped while the attempt was on the wire, or a snapshot taken then was
// restored — is found when the delivery is next due: it counts as a failed attempt ("interrupted
// by a restart") and is never sent again as itself, so a receiver never sees more than the 7
// attempts of a round, whatever is killed (the spec: 7 attempts, then dead_letter).

export const MAX_IN_FLIGHT = 64;
export const PER_ENDPOINT_IN_FLIGHT = 8;

/** An attempt waiting for its start to be written: `go(true)` sends it, `go(false)` never does. */
interface Starting {
  deliveryId: string;
  startedAt: number;
  go(written: boolean): void;
}

/** What a start that could not be written (or an engine stopping before it was) resolves to: nothing was sent. */
const NOT_STARTED: AttemptOutcome = { ok: false, status_code: null, latency_ms: 0, error: 'not started', response_excerpt: '', aborted: true };

/** The outcome of an attempt written as started but never recorded: a failed attempt. */
const INTERRUPTED: AttemptOutcome = {
  ok: false,
  status_code: null,
  latency_ms: 0,
  error: 'interrupted by a restart: the emulator stopped (or could not record the answer) while this attempt was on the wire; it counts as failed and is not sent again',
  response_excerpt: '',
  aborted: false,
};

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
  private sender: Sender;
  /** delivery id -> the scheduler's run waiting for the attempt to be recorded */
  private readonly waiters = new Map<string, { promise: Promise<void>; done: () => void }>();
  /** delivery id -> its clock timer, while a delay or reorder fault holds the attempt */
  private readonly parked = new Map<string, TimerHandle>();
  /** deliveries whose fault was drawn already (they leave once their parked wait is over) */
  private readonly faultApplied = new Set<string>();
  /** endpoint id -> due delivery ids, oldest first */
  private readonly ready = new Map<string, Fifo<string>>();
  private readonly queued = new Set<string>();
  /** endpoints with due deliveries and a free slot, in round-robin order */
  private readonly runnable = new Fifo<string>();
  private readonly runnableSet = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly busy = new Map<string, number>();
  private finished: Finished[] = [];
  private starting: Starting[] = [];
  private flushScheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly services: Services) {
    this.sender = new Sender(services.config.webhookTimeoutMs);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // Deleted endpoints cancel their deliveries; everything else comes through attempt().
    this.unsubscribe = this.services.store.onCommit((ops) => this.onCommit(ops));
  }

  /**
   * Sends the delivery's due attempt: it joins its endpoint's queue, and the promise settles
   * once the attempt is recorded (or found not due, or held by a delay fault: the wait is on
   * the clock, and the attempt goes out when the clock gets there).
   */
  attempt(deliveryId: string): Promise<void> {
    if (!this.running || this.parked.has(deliveryId)) return Promise.resolve();
    const waiting = this.waiters.get(deliveryId);
    if (waiting) return waiting.promise;
    const d = this.services.store.get(DELIVERIES, deliveryId);
    if (!d) return Promise.resolve();
    let done!: () => void;
    const promise = new Promise<void>((ok) => (done = ok));
    this.waiters.set(deliveryId, { promise, done });
    this.enqueue(deliveryId, d.endpoint_id);
    return promise;
  }

  private settle(deliveryId: string): void {
    const w = this.waiters.get(deliveryId);
    if (!w) return;
    this.waiters.delete(deliveryId);
    w.done();
  }

  /**
   * Resolves once no attempt is queued, on the wire, held by a fault or waiting to be
   * recorded: with the scheduler's idle() (nothing due left to start), the signal a test waits
   * on instead of "nothing arrived after 30 ms". A stopped engine is idle.
   */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((ok) => this.idleWaiters.push(ok));
  }

  isIdle(): boolean {
    return !this.running || (this.inFlight.size === 0 && this.queued.size === 0 && this.parked.size === 0 && this.finished.length === 0 && this.starting.length === 0 && !this.flushScheduled);
  }

  private wakeIdleWaiters(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const ok of waiters) ok();
  }

  /**
   * Stops sending: attempts not on the wire yet are not sent, those on it are aborted (left
   * written as started: the next start counts them as failed), finished ones are recorded,
   * held ones forgotten.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    for (const handle of this.parked.values()) this.services.scheduler.cancel(handle);
    this.parked.clear();
    this.faultApplied.clear();
    this.ready.clear();
    this.queued.clear();
    this.runnable.clear();
    this.runnableSet.clear();
    for (const s of this.starting.splice(0)) s.go(false);
    this.sender.abortAll();
    await Promise.all(this.inFlight.values());
    this.flush();
    for (const id of [...this.waiters.keys()]) this.settle(id);
    this.wakeIdleWaiters();
    await this.sender.close();
    this.sender = new Sender(this.services.config.webhookTimeoutMs); // a later start() gets fresh connections
  }

  private onCommit(ops: readonly Op[]): void {
    for (const op of ops) {
      if (op.c === WEBHOOK_ENDPOINTS.name && (op.v as EndpointRecord | undefined)?.deleted_at) {
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
    // The attempt on the wire records the outcome (and settles the waiter) against the latest
    // state; a second concurrent attempt must not start.
    if (this.inFlight.has(deliveryId)) return;
    if (!d || !isScheduled(d) || d.next_attempt_at! > clock.now()) return this.settle(deliveryId);
    const endpoint = store.get(WEBHOOK_ENDPOINTS, d.endpoint_id);
    const event = store.get(EVENTS, d.event_id);
    if (!endpoint || endpoint.deleted_at) {
      // Deleted endpoint whose cancel has not run yet: never send; cancel (outside any commit).
      queueMicrotask(() => this.cancelFor(d.endpoint_id));
      return this.settle(deliveryId);
    }
    if (!event) {
      // The outbox writes an event and its deliveries in one transaction; this is damage.
      this.services.log.warn(`webhooks: delivery ${d.id} has no event ${d.event_id}; not sent`);
      return this.settle(deliveryId);
    }
    if (d.started_at !== undefined) {
      // Written as started by an earlier run (or in a restored snapshot) and never recorded:
      // the receiver may have had it, so it counts as a failed attempt and is not sent again.
      this.finished.push({ deliveryId, startedAt: d.started_at, outcome: INTERRUPTED });
      return this.scheduleFlush();
    }
    // Nothing goes out before its start is written (flush): `written` settles then.
    let go!: (written: boolean) => void;
    const written = new Promise<boolean>((ok) => (go = ok));
    // A fresh t on every attempt; wall-clock seconds, so receivers' tolerance checks pass
    // even after `svc emulator clock advance` (docs/spec-gaps.md).
    let signature = '';
    const send = () =>
      written.then((ok) => {
        if (!ok || !this.running) return NOT_STARTED;
        signature = signPayload(endpoint.secret, event.body, Math.floor(Date.now() / 1000));
        return this.sender.send({ url: endpoint.url, body: event.body, headers: attemptHeaders(event.type, d.id, signature), timeoutMs: config.webhookTimeoutMs });
      });
    // An injected delivery fault (faults/delivery.ts) may drop, delay or duplicate the attempt;
    // one that was held already has had its fault.
    const fault = this.faultApplied.delete(deliveryId) || this.services.faults.empty ? undefined : takeDeliveryFault(this.services, event.type, endpoint.id);
    const plan = fault ? applyDeliveryFault(this.services, fault, d.id, send) : undefined;
    if (plan && 'waitMs' in plan) return this.park(deliveryId, plan.waitMs);
    const startedAt = clock.now();
    this.starting.push({ deliveryId, startedAt, go });
    this.scheduleFlush();
    this.busy.set(endpoint.id, (this.busy.get(endpoint.id) ?? 0) + 1);
    const attempt = written.then((ok) => (ok && plan ? plan.outcome : send())).then((outcome) => {
      this.inFlight.delete(deliveryId);
      const left = (this.busy.get(endpoint.id) ?? 1) - 1;
      if (left > 0) this.busy.set(endpoint.id, left);
      else this.busy.delete(endpoint.id);
      if (outcome.aborted) return this.settle(deliveryId); // not sent, or cut off by a stop: nothing to record now
      this.finished.push({ deliveryId, startedAt, outcome, signature });
      this.scheduleFlush();
      this.markRunnable(endpoint.id);
      this.pump();
    });
    this.inFlight.set(deliveryId, attempt);
  }

  /**
   * A delay or reorder fault holds the attempt `ms` on the emulator clock: it holds no slot
   * meanwhile, and the scheduler's run for it is over (an advance must be able to move the clock
   * to the end of the wait). When the clock gets there the attempt is due again and goes out.
   */
  private park(deliveryId: string, ms: number): void {
    this.faultApplied.add(deliveryId);
    const handle = this.services.scheduler.at(this.services.clock.now() + ms, () => {
      this.parked.delete(deliveryId);
      return this.attempt(deliveryId);
    });
    this.parked.set(deliveryId, handle);
    this.settle(deliveryId);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
      this.wakeIdleWaiters();
    });
  }

  /**
   * One transaction for the tick: every finished attempt with the next state of its delivery,
   * and the start of every attempt about to go out. The starts are sent once it is written;
   * if the store refuses it, nothing is sent or recorded and the deliveries are still due.
   */
  private flush(): void {
    const batch = this.finished;
    const starting = this.starting;
    this.finished = [];
    this.starting = [];
    if (batch.length === 0 && starting.length === 0) return;
    const { store, clock } = this.services;
    try {
      store.transaction((tx) => {
        for (const f of batch) this.record(tx, f);
        for (const s of starting) {
          const d = store.get(DELIVERIES, s.deliveryId);
          if (d) tx.put(DELIVERIES, { ...d, started_at: s.startedAt });
        }
      });
    } catch (err) {
      // The store refused the write: the deliveries are still due; the scheduler tries them
      // again a little later on the clock (not at once: a full disk would make that a loop).
      this.services.log.warn(`webhooks: could not record ${batch.length} attempt(s) and ${starting.length} start(s): ${messageOf(err)}`);
      const later = clock.now() + RETRY_AFTER_FAILURE_MS;
      for (const { deliveryId } of [...batch, ...starting]) if (this.running) this.services.scheduler.recheck(DELIVERIES, deliveryId, later);
      for (const s of starting) s.go(false);
      for (const f of batch) this.settle(f.deliveryId);
      return;
    }
    for (const s of starting) s.go(true);
    for (const f of batch) this.settle(f.deliveryId);
  }

  /** Writes one finished attempt and the next state of its delivery (its start marker cleared). */
  private record(tx: Transaction, f: Finished): void {
    const { store, clock, stamps } = this.services;
    const current = store.get(DELIVERIES, f.deliveryId);
    if (!current) return;
    const { started_at: _, ...d } = current;
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
    this.services.coverage.attempted(d, f.outcome, status);
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
}

/**
 * The engine's timed work: every delivery waiting for an attempt (the `scheduled` index) is
 * due at its `next_attempt_at`. The scheduler reads them from the store at start and after a
 * world is replaced, and follows every write to the collection (a new event's deliveries, a
 * redelivery, a recorded attempt), so the engine keeps no timers of its own.
 */
export const webhookAttempts = recordWork({
  name: 'webhook attempt',
  collection: DELIVERIES,
  waiting: { index: 'scheduled', key: SCHEDULED_KEY },
  dueAt: (d) => (isScheduled(d) ? d.next_attempt_at! : undefined),
  run: (services, d) => services.deliveries.attempt(d.id),
});
