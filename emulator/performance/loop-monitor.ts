import { closeSync, openSync, readSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type { HelperThreads } from './helper-threads.js';

// How the event loop of one emulator is doing, for GET /_emulator/metrics (control/metrics.ts):
// how late it ran (a 10 ms delay histogram: a long synchronous task — a big JSON.stringify, an
// O(n) scan — shows up here, not in a request log), garbage-collection pauses (the usual other
// cause), and the largest stall taken apart. Every figure covers the window since start() or
// the last reset().
//
// The largest stall says why the loop was late: in the longest gap between two ticks of a 10 ms
// timer, how long the main thread ran (JavaScript, GC pauses, system calls on the CPU), how long
// it was runnable but waiting for a CPU (other processes, or this process's own helper threads),
// how long it was off the CPU altogether (blocked in the kernel: a disk write, a page fault), and
// how much of the gap was GC pauses. On Linux the first three come from the main thread's /proc
// schedstat; elsewhere they are null and only the gap and the GC time are known.
//
// The probes (the timer and the histogram) tick while anything runs in the emulator: a request
// (app.ts), the scheduler's due work, a compaction slice (file-store.ts) each call
// noteActivity(). After idleMs with none they sleep, and the next activity wakes them: an idle
// emulator then wakes about never instead of ~240 times a second (measured: 2.3% of a CPU, 93%
// of it the probes). A stall needs something running, so sleeping probes miss none, and the
// time asleep is no gap. The timers are unref'd: they keep no process alive.

/** The probes' tick, and the delay histogram's resolution. */
export const RESOLUTION_MS = 10;
const MAX_PAUSES = 64;

export interface StallDetail {
  ms: number;
  ran_ms: number | null;
  waited_for_cpu_ms: number | null;
  off_cpu_ms: number | null;
  gc_ms: number;
}

/** A point in time and the main thread's schedstat counters then (ns; 0 without /proc). */
interface Mark {
  at: number;
  run: number;
  wait: number;
}

/** What an emulator that owns its process did to it at start (server.ts: `ownsProcess`). */
interface ProcessTuning {
  /** The V8 flags set (heap.ts). */
  heap: string[];
  /** On one CPU, the nice value the other threads got (helper-threads.ts), or null. */
  helperThreads: HelperThreads | null;
}

interface GcWindow {
  count: number;
  totalMs: number;
  maxMs: number;
  /** minor (scavenge), major (mark-compact), incremental or weakcb: which pause was longest. */
  maxKind: string | null;
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

const mark = (at: number, s: [number, number] | null): Mark => ({ at, run: s?.[0] ?? 0, wait: s?.[1] ?? 0 });
const round = (ms: number) => Math.round(ms * 100) / 100;

export class LoopMonitor {
  /** How long without activity before the probes sleep (tests shorten it). */
  idleMs = 30_000;
  readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  /** When the window opened (wall time), and the process's CPU time and CPU wait (ns) then. */
  since = Date.now();
  cpuAtStart = process.cpuUsage();
  waitAtStart: number | null = null;
  gc: GcWindow = { count: 0, totalMs: 0, maxMs: 0, maxKind: null };
  /** The longest gap of the window, taken apart; null before the first tick. */
  largest: StallDetail | null = null;
  /** When the largest gap began and ended (performance.now() ms). */
  span: [number, number] = [0, 0];
  /**
   * Where the window's first gap starts: when it opened, not the timer's tick before that. Like
   * the delay histogram after reset(), which forgets its last tick: a block that ran up to a
   * reset (one bench run's 52 ms one, just before its compaction window) is not the new window's.
   */
  opened: Mark = mark(0, null);
  private last: Mark = mark(0, null);
  private timer: NodeJS.Timeout | undefined;
  private asleep = false;
  private activity = 0;
  private seen = -1;
  private quietSince = 0;
  /** Recent GC pauses, [start, end] in performance.now() ms. */
  private readonly pauses: Array<[number, number]> = [];
  private observer: PerformanceObserver | undefined;
  private schedFd: number | null | undefined;
  private readonly buffer = Buffer.alloc(128);

  constructor(readonly tuning: ProcessTuning = { heap: [], helperThreads: null }) {}

  /** Starts watching (the server calls it once it listens). */
  start(): void {
    this.observer = new PerformanceObserver((list) => this.onGc(list.getEntries()));
    this.observer.observe({ entryTypes: ['gc'] });
    this.reset();
  }

  /** A new window: every figure starts again from now. */
  reset(): void {
    this.histogram.reset();
    this.since = Date.now();
    this.cpuAtStart = process.cpuUsage();
    this.waitAtStart = this.schedNs()?.[1] ?? null;
    this.gc = { count: 0, totalMs: 0, maxMs: 0, maxKind: null };
    this.largest = null;
    this.span = [0, 0];
    this.opened = mark(performance.now(), this.schedNs());
    if (this.asleep) this.wake();
    else if (!this.timer) this.startProbes();
  }

  /** Stops the probes for good (the emulator is closing). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.asleep = false; // so no activity wakes them
    this.histogram.disable();
    this.observer?.disconnect();
    if (typeof this.schedFd === 'number') closeSync(this.schedFd);
    this.schedFd = null;
  }

  /** Something runs now (cheap: called on every request). */
  noteActivity(): void {
    this.activity++;
    if (this.asleep) this.wake();
  }

  /** Whether the probes tick now (asleep: no activity for a while). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /**
   * [ran, waited for a CPU] nanoseconds of the main thread so far (Linux schedstat, one pread of
   * a file kept open; null elsewhere). Call it on the main thread: the first call opens the file.
   */
  schedNs(): [number, number] | null {
    if (this.schedFd === undefined) {
      try {
        // Opened on the main thread, so /proc/thread-self is the main thread's (the timer runs there too).
        this.schedFd = openSync('/proc/thread-self/schedstat', 'r');
      } catch {
        this.schedFd = null;
      }
    }
    if (this.schedFd === null) return null;
    try {
      const n = readSync(this.schedFd, this.buffer, 0, this.buffer.length, 0);
      const [run, wait] = this.buffer.toString('latin1', 0, n).split(' ');
      return [Number(run), Number(wait)];
    } catch {
      closeSync(this.schedFd);
      this.schedFd = null;
      return null;
    }
  }

  private startProbes(): void {
    this.last = mark(performance.now(), this.schedNs());
    this.quietSince = this.last.at;
    this.seen = this.activity;
    this.timer = setInterval(() => this.tick(), RESOLUTION_MS);
    this.timer.unref();
    this.histogram.enable();
  }

  private tick(): void {
    const at = performance.now();
    const s = this.schedNs();
    const now = mark(at, s);
    const from = this.opened.at > this.last.at ? this.opened : this.last;
    const gap = at - from.at;
    if (!this.largest || this.largest.ms < gap) {
      const ran = s ? (now.run - from.run) / 1e6 : null;
      const waited = s ? (now.wait - from.wait) / 1e6 : null;
      this.largest = {
        ms: round(gap),
        ran_ms: ran === null ? null : round(ran),
        waited_for_cpu_ms: waited === null ? null : round(waited),
        off_cpu_ms: ran === null || waited === null ? null : round(Math.max(0, gap - ran - waited)),
        gc_ms: round(this.gcWithin(from.at, at)),
      };
      this.span = [from.at, at];
    }
    this.last = now;
    if (this.activity !== this.seen) {
      this.seen = this.activity;
      this.quietSince = at;
    } else if (at - this.quietSince >= this.idleMs) this.sleep();
  }

  private sleep(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.asleep = true;
    this.histogram.disable();
  }

  private wake(): void {
    this.asleep = false;
    // The time asleep is not a gap: the next one is measured from now.
    this.startProbes();
  }

  private gcWithin(from: number, to: number): number {
    let total = 0;
    for (const [start, end] of this.pauses) total += Math.max(0, Math.min(end, to) - Math.max(start, from));
    return total;
  }

  /**
   * GC pauses are heard a little after they happen: one inside a gap the timer has already
   * measured is added to that gap here.
   */
  private onGc(entries: PerformanceEntry[]): void {
    for (const entry of entries) {
      const start = entry.startTime;
      const end = start + entry.duration;
      this.pauses.push([start, end]);
      if (this.pauses.length > MAX_PAUSES) this.pauses.splice(0, this.pauses.length - MAX_PAUSES);
      const overlap = Math.min(end, this.span[1]) - Math.max(start, this.span[0]);
      if (this.largest && overlap > 0) this.largest = { ...this.largest, gc_ms: round(this.largest.gc_ms + overlap) };
      const gc = this.gc;
      gc.count++;
      gc.totalMs += entry.duration;
      if (entry.duration > gc.maxMs) {
        gc.maxMs = entry.duration;
        const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
        gc.maxKind = kind === undefined ? null : (GC_KINDS[kind] ?? String(kind));
      }
    }
  }
}
