import type { Services } from '../services.js';
import type { StoredRecord } from '../store/store.js';
import type { AnyCollection } from '../store/collection.js';
import { MinHeap, type HeapEntry } from './heap.js';
import type { RecordWork, SweepWork, TimedWork } from './work.js';
import { saveClock } from './clock-record.js';
import { messageOf } from '../../contract/errors.js';

// The one scheduler: every timed effect of the emulator runs here, at its time on the emulator
// clock — webhook attempts, payout answers, MoMo clearing, retention (modules declare them in
// registry.ts as `timed`, see work.ts), and the in-memory waits of requests held on the clock
// (`--latency`, latency and delay faults: `sleep`, `at`).
//
// Due times come from stored records. The scheduler reads them at start and after a world is
// replaced, then follows the store's commit feed: a write that gives a record a due time (or
// moves or clears it) updates one heap entry. Nothing is armed by the code that writes the
// record, so nothing needs re-arming after a restart, a reset or a restore.
//
// Running due work:
//  - On its own (system clock: a real timer for the earliest due item; either clock: at once
//    when something is already due), items run as they fall due; their async work (an HTTP
//    attempt) is not waited for, so a dead receiver never delays anything else.
//  - `advance(ms)` (POST /_emulator/clock/advance, the testing API's clock.advance) runs the
//    items due in the window in time order, each with the clock showing its own due time,
//    and waits for the async work each one started before it moves on: a webhook attempt that
//    fails at +1 s is recorded at +1 s, so its retry is due at +6 s, inside the same advance.
//    Items due at the same time run together. It answers once the window is done, with the
//    clock at its end. This is Miniflare's advanceFakeTime + waitForFakeTasks, one step per due
//    time instead of one jump to the end.
//
// A webhook attempt waits for its receiver in wall time (--webhook-timeout, 10 s by default): a
// receiver is a real process, and a manual clock does not move while it answers. An advance
// waits for each step's attempts at most that long (plus a second): over a receiver that never
// answers it takes up to one timeout per due time in its window, each attempt recorded as a
// timeout at its own time; attempts queued behind that receiver's held slots go out after the
// advance has moved on (the engine keeps a dead endpoint from holding anyone else's slots).

interface Entry extends HeapEntry {
  /** Index of the work in `works`; -1 for an in-memory timer. */
  work: number;
  /** The record's id (per-record work); '' otherwise. */
  id: string;
  fn?: () => unknown;
}

/** An in-memory timer (`at`), for `cancel`. */
export type TimerHandle = object;

/** Node turns setTimeout delays past 2^31-1 ms into 1 ms; longer waits re-arm. */
const MAX_TIMEOUT = 2 ** 31 - 1;
/** When a run throws (a refused write), the item is tried again this much later on the clock. */
export const RETRY_AFTER_FAILURE_MS = 60_000;
/** Items run per turn of the event loop when many are due at once, so requests still get turns. */
const ITEMS_PER_TURN = 2_000;

const turn = () => new Promise<void>((ok) => setImmediate(ok));

export class Scheduler {
  private readonly heap = new MinHeap<Entry>();
  private seq = 0;
  /** Per-record work: record id -> its live entry (an entry not in here is stale). */
  private readonly records: Array<Map<string, Entry>>;
  /** Sweeps: the live entry, if the sweep has a due time. */
  private readonly sweeps: Array<Entry | undefined>;
  private readonly timers = new Set<Entry>();
  private readonly sleepers = new Map<() => void, Entry>();
  /** Collection name -> the works that watch it. */
  private readonly watching = new Map<string, number[]>();
  private running = false;
  private closed = false;
  /** An advance is running its due work: nothing else runs items meanwhile. */
  private stepping = false;
  private advancing: Promise<unknown> = Promise.resolve();
  private wake: NodeJS.Timeout | undefined;
  private wakeAt = Infinity;
  private kicked = false;
  /** Async work started by runs and not finished yet. */
  private readonly busy = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly services: Services,
    private readonly works: readonly TimedWork[],
  ) {
    this.records = works.map(() => new Map());
    this.sweeps = works.map(() => undefined);
    works.forEach((w, i) => {
      for (const c of w.shape === 'record' ? [w.collection] : w.collections) {
        const list = this.watching.get(c.name) ?? [];
        list.push(i);
        this.watching.set(c.name, list);
      }
    });
    services.store.onCommit((ops) => this.onCommit(ops));
  }

  /** Reads every due item from the store and starts running them (at start, after a world is replaced). */
  start(): void {
    if (this.closed || this.running) return;
    this.running = true;
    const { store } = this.services;
    this.works.forEach((w, i) => {
      if (w.shape === 'sweep') return this.setSweep(i, w.nextDue(this.services));
      const records = w.waiting ? store.byIndex(w.collection, w.waiting.index, w.waiting.key) : store.all(w.collection);
      for (const r of records) {
        const due = w.dueAt(r, this.services);
        if (due !== undefined) this.setRecord(i, r.id, due);
      }
    });
    this.arm();
  }

  /** Forgets every due item (a world is being replaced; `start` reads the new one). In-memory timers stay. */
  stop(): void {
    this.running = false;
    this.clearWake();
    for (const m of this.records) m.clear();
    this.sweeps.fill(undefined);
    this.heap.rebuild((e) => this.timers.has(e));
    this.checkIdle();
  }

  /** The emulator is closing: nothing runs any more, and every request held on the clock is let go. */
  close(): void {
    this.stop();
    this.closed = true;
    for (const [ok, e] of this.sleepers) {
      this.timers.delete(e);
      ok();
    }
    this.sleepers.clear();
    this.timers.clear();
    this.heap.clear();
  }

  /** Items waiting for their time: records with work due, sweeps, in-memory timers (GET /_emulator/clock's pending_timers). */
  pending(): number {
    let n = this.timers.size;
    for (const m of this.records) n += m.size;
    for (const s of this.sweeps) if (s) n++;
    return n;
  }

  /** Runs `fn` once the clock reaches `at` (in memory: a restart forgets it). */
  at(at: number, fn: () => unknown): TimerHandle {
    const e: Entry = { due: at, seq: ++this.seq, work: -1, id: '', fn };
    this.timers.add(e);
    this.push(e);
    this.noteDue(at);
    return e;
  }

  cancel(handle: TimerHandle): void {
    this.timers.delete(handle as Entry);
  }

  /** Resolves `ms` later on the emulator clock (a manual clock: once it is advanced that far), or when the emulator closes. */
  sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((ok) => {
      const done = () => {
        this.sleepers.delete(done);
        ok();
      };
      this.sleepers.set(done, this.at(this.services.clock.now() + ms, done) as Entry);
    });
  }

  /**
   * Reads one record's due time again: its work could not be recorded, so it is still due —
   * at `notBefore` at the earliest (a refused write is not retried in a loop).
   */
  recheck(collection: AnyCollection, id: string, notBefore = -Infinity): void {
    const record = this.services.store.get(collection, id);
    let earliest = Infinity;
    for (const i of this.watching.get(collection.name) ?? []) {
      const w = this.works[i];
      if (w.shape !== 'record') continue;
      const due = record ? w.dueAt(record, this.services) : undefined;
      if (due === undefined) this.records[i].delete(id);
      else earliest = Math.min(earliest, this.setRecord(i, id, Math.max(due, notBefore)));
    }
    if (earliest !== Infinity) this.noteDue(earliest);
  }

  /**
   * Moves the clock forward by `ms`, running every item due on the way in time order, each at
   * its own due time, and waiting for the async work each starts before the next. Advances
   * queue behind each other. Resolves with the clock at the end of the window.
   */
  advance(ms: number): Promise<void> {
    const run = this.advancing.then(() => this.runAdvance(ms));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  /**
   * Resolves once nothing is due that has not run, no run's async work is unfinished and no
   * advance is running. Items due at a later time on the clock do not count.
   */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((ok) => this.idleWaiters.push(ok));
  }

  // ---- following the store

  private onCommit(ops: readonly { c: string; id: string; v?: StoredRecord }[]): void {
    if (!this.running) return;
    let earliest = Infinity;
    for (const op of ops) {
      const list = this.watching.get(op.c);
      if (!list) continue;
      for (const i of list) {
        const w = this.works[i];
        if (w.shape === 'record') {
          const due = op.v ? w.dueAt(op.v, this.services) : undefined;
          const current = this.records[i].get(op.id);
          if (due === undefined) {
            if (current) this.records[i].delete(op.id);
          } else if (!current || current.due !== due) {
            earliest = Math.min(earliest, this.setRecord(i, op.id, due));
          }
        } else if (op.v) {
          const due = w.dueOf(op.c, op.v, this.services);
          const current = this.sweeps[i];
          if (due !== undefined && (!current || due < current.due)) earliest = Math.min(earliest, this.setSweep(i, due)!);
        }
      }
    }
    if (earliest !== Infinity) this.noteDue(earliest);
  }

  private setRecord(i: number, id: string, due: number): number {
    const e: Entry = { due, seq: ++this.seq, work: i, id };
    this.records[i].set(id, e);
    this.push(e);
    return due;
  }

  private setSweep(i: number, due: number | undefined): number | undefined {
    if (due === undefined) {
      this.sweeps[i] = undefined;
      return undefined;
    }
    const e: Entry = { due, seq: ++this.seq, work: i, id: '' };
    this.sweeps[i] = e;
    this.push(e);
    return due;
  }

  private push(e: Entry): void {
    this.heap.push(e);
    // Entries are dropped by forgetting them; once the stale ones dominate, the heap is rebuilt.
    if (this.heap.size > 1024 && this.heap.size > 3 * this.pending()) this.heap.rebuild((x) => this.isLive(x));
  }

  private isLive(e: Entry): boolean {
    if (e.work === -1) return this.timers.has(e);
    return this.works[e.work].shape === 'sweep' ? this.sweeps[e.work] === e : this.records[e.work].get(e.id) === e;
  }

  /** The earliest live entry (stale ones on top are dropped on the way). */
  private peek(): Entry | undefined {
    for (;;) {
      const top = this.heap.peek();
      if (!top || this.isLive(top)) return top;
      this.heap.pop();
    }
  }

  /** Takes every live entry due at or before `now`, earliest first (they are forgotten: a run that leaves the record due schedules it again). */
  private takeDue(now: number, limit = Infinity): Entry[] {
    const batch: Entry[] = [];
    for (let top = this.peek(); top && top.due <= now && batch.length < limit; top = this.peek()) {
      this.heap.pop();
      if (top.work === -1) this.timers.delete(top);
      else if (this.works[top.work].shape === 'sweep') this.sweeps[top.work] = undefined;
      else this.records[top.work].delete(top.id);
      batch.push(top);
    }
    return batch;
  }

  // ---- running items

  /** Runs one item; returns its async work, if it started any. */
  private run(e: Entry, now: number): Promise<void> | undefined {
    if (e.work === -1) return this.settle(() => e.fn!(), 'timer');
    const w = this.works[e.work];
    return w.shape === 'sweep' ? this.runSweep(e.work, w, now) : this.runRecord(e.work, w, e.id, now);
  }

  private runSweep(i: number, w: SweepWork, now: number): undefined {
    let next: number | undefined;
    try {
      w.run(this.services);
      next = w.nextDue(this.services);
      if (next !== undefined && next <= now) {
        this.services.log.warn(`${w.name}: still due after running; tried again in ${RETRY_AFTER_FAILURE_MS / 1000} s of clock time`);
        next = now + RETRY_AFTER_FAILURE_MS;
      }
    } catch (err) {
      this.services.log.warn(`${w.name} failed (tried again in ${RETRY_AFTER_FAILURE_MS / 1000} s of clock time): ${messageOf(err)}`);
      next = now + RETRY_AFTER_FAILURE_MS;
    }
    // A write made during the run may already have set an earlier time.
    const current = this.sweeps[i];
    if (next !== undefined && (!current || next < current.due)) this.setSweep(i, next);
    return undefined;
  }

  private runRecord(i: number, w: RecordWork, id: string, now: number): Promise<void> | undefined {
    const record = this.services.store.get(w.collection, id);
    if (!record) return undefined;
    const due = w.dueAt(record, this.services);
    if (due === undefined) return undefined;
    if (due > now) {
      if (!this.records[i].has(id)) this.setRecord(i, id, due);
      return undefined;
    }
    let result: ReturnType<RecordWork['run']>;
    try {
      result = w.run(this.services, record);
    } catch (err) {
      this.services.log.warn(`${w.name} for ${id} failed (tried again in ${RETRY_AFTER_FAILURE_MS / 1000} s of clock time): ${messageOf(err)}`);
      if (!this.records[i].has(id)) this.setRecord(i, id, now + RETRY_AFTER_FAILURE_MS);
      return undefined;
    }
    if (result instanceof Promise) return this.settle(() => result, w.name);
    if (result && 'retryAt' in result && !this.records[i].has(id)) this.setRecord(i, id, Math.max(result.retryAt, now + 1));
    return undefined;
  }

  /** Runs `fn` and hands back its async part, counted as busy until it settles (a failure is logged, never thrown). */
  private settle(fn: () => unknown, name: string): Promise<void> | undefined {
    let result: unknown;
    try {
      result = fn();
    } catch (err) {
      this.services.log.warn(`${name} failed: ${messageOf(err)}`);
      return undefined;
    }
    if (!(result instanceof Promise)) return undefined;
    const tracked: Promise<void> = result.then(
      () => undefined,
      (err: Error) => this.services.log.warn(`${name} failed: ${err.message}`),
    );
    const done = tracked.finally(() => {
      this.busy.delete(done);
      this.checkIdle();
    });
    this.busy.add(done);
    return done;
  }

  /** What the real timer and a kick run: everything due by now, without waiting for async work. */
  private readonly runDue = (): void => {
    this.services.monitor.noteActivity(); // due work may stall the loop: the probes watch (performance/loop-monitor.ts)
    this.kicked = false;
    this.clearWake();
    if (!this.running || this.stepping) return;
    let ran = 0;
    for (;;) {
      const now = this.services.clock.now();
      const batch = this.takeDue(now, ITEMS_PER_TURN - ran);
      if (batch.length === 0) break;
      for (const e of batch) this.run(e, now);
      ran += batch.length;
      if (ran >= ITEMS_PER_TURN) return this.kick(); // the rest after a turn of the event loop
    }
    this.arm();
    this.checkIdle();
  };

  private async runAdvance(ms: number): Promise<void> {
    const { clock } = this.services;
    const target = clock.beginAdvance(ms);
    this.stepping = true;
    this.clearWake();
    try {
      // Work already on its way (a system clock's attempt) finishes at the time it started.
      if (this.busy.size > 0) await this.waitBounded([...this.busy]);
      while (this.running) {
        const top = this.peek();
        if (!top || top.due > target.end()) break;
        if (top.due > clock.now()) {
          clock.moveTo(top.due);
          saveClock(this.services); // the clock's position is durable before the work done at it
        }
        const now = clock.now();
        const waits: Array<Promise<void>> = [];
        for (const e of this.takeDue(now)) {
          const p = this.run(e, now);
          if (p) waits.push(p);
        }
        if (waits.length > 0) await this.waitBounded(waits);
        // Continuations of what ran (a request a latency wait let go) run at this time too.
        await turn();
      }
      target.finish();
      saveClock(this.services);
    } finally {
      this.stepping = false;
      this.arm();
      this.checkIdle();
    }
  }

  /**
   * Waits for a step's async work, at most the webhook timeout (plus a second) of wall time: one
   * attempt is bounded by that timeout, and attempts queued behind a receiver that never answers
   * (its slots all held) must not hold the advance for a timeout each. What is still unfinished
   * then finishes on its own, and is recorded with the clock where it is by then.
   */
  private async waitBounded(work: Array<Promise<void>>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((ok) => {
      timer = setTimeout(ok, this.services.config.webhookTimeoutMs + 1_000);
      timer.unref();
    });
    try {
      await Promise.race([Promise.all(work), bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  // ---- waking up

  /** A due time was added: make sure something will run it. */
  private noteDue(due: number): void {
    if (!this.running || this.stepping) return; // an advance picks it up
    if (due <= this.services.clock.now()) this.kick();
    else if (this.services.clock.mode === 'system' && due < this.wakeAt) this.arm();
  }

  /** Runs what is due after the current turn (never inside the commit that made it due). */
  private kick(): void {
    if (this.kicked || !this.running) return;
    this.kicked = true;
    setImmediate(this.runDue);
  }

  private arm(): void {
    this.clearWake();
    if (!this.running || this.stepping) return;
    const top = this.peek();
    if (!top) return;
    const now = this.services.clock.now();
    if (top.due <= now) return this.kick();
    if (this.services.clock.mode === 'manual') return; // runs when an advance gets there
    this.wakeAt = top.due;
    this.wake = setTimeout(this.runDue, Math.min(Math.max(top.due - now, 1), MAX_TIMEOUT));
    this.wake.unref();
  }

  private clearWake(): void {
    if (this.wake) clearTimeout(this.wake);
    this.wake = undefined;
    this.wakeAt = Infinity;
  }

  /** True when idle() would resolve at once. */
  isIdle(): boolean {
    if (!this.running) return true;
    if (this.stepping || this.kicked || this.busy.size > 0) return false;
    const top = this.peek();
    return !top || top.due > this.services.clock.now();
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const ok of waiters) ok();
  }
}
