import { closeSync, openSync, readSync } from 'node:fs';
import { activitySeen, wakeOnActivity } from '../activity.js';

// The largest event-loop stall of a window, taken apart. The histogram in metrics.ts says how
// late the loop ran; this says why: in the longest gap between two ticks of a 10 ms timer, how
// long the main thread ran (JavaScript, GC pauses, system calls on the CPU), how long it was
// runnable but waiting for a CPU (other processes, or this process's own helper threads), how
// long it was off the CPU altogether (blocked in the kernel: a disk write, a page fault), and
// how much of the gap was GC pauses. On Linux the first three come from the main thread's
// /proc schedstat; elsewhere they are null and only the gap and the GC time are known.
//
// One timer per process (unref'd: it keeps nothing alive) feeds every open window; windows
// are held weakly, like metrics.ts's GC listeners, so a closed emulator takes its own along.
// The timer sleeps after IDLE_MS with no activity (activity.ts) and wakes at the next one; the
// time asleep is no gap.

const TICK_MS = 10;
const IDLE_MS = 30_000;
let idleMs = IDLE_MS;
/** Tests: how long without activity before the probes sleep (default 30 s). */
export function setProbeIdleMs(ms: number): void {
  idleMs = ms;
}

export interface StallDetail {
  ms: number;
  ran_ms: number | null;
  waited_for_cpu_ms: number | null;
  off_cpu_ms: number | null;
  gc_ms: number;
}

export interface StallWindow {
  largest: StallDetail | null;
  /** When the largest gap began and ended (performance.now() ms). */
  span: [number, number];
  /**
   * Where the window's first gap starts: when it opened, not the timer's tick before that. Like
   * the delay histogram after reset(), which forgets its last tick: a block that ran up to a
   * reset (one bench run's 52 ms one, just before its compaction window) is not the new window's.
   */
  opened: Mark;
}

/** A point in time and the main thread's schedstat counters then (ns; 0 without /proc). */
export interface Mark {
  at: number;
  run: number;
  wait: number;
}

const windows = new Set<WeakRef<StallWindow>>();
/** Recent GC pauses, [start, end] in performance.now() ms (metrics.ts reports them here). */
const pauses: Array<[number, number]> = [];
const MAX_PAUSES = 64;

let timer: NodeJS.Timeout | undefined;
let asleep = false;
let seen = -1;
let quietSince = 0;
/** Told when the probes sleep (false) and wake (true): metrics.ts's histograms follow. */
const stateListeners = new Set<(running: boolean) => void>();
export function onProbeState(listener: (running: boolean) => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}
/** Whether the probes tick now (asleep: no activity for a while). */
export const probesRunning = (): boolean => timer !== undefined;
let schedFd: number | null | undefined;
const buffer = Buffer.alloc(128);
let last: Mark = { at: 0, run: 0, wait: 0 };

/**
 * [ran, waited for a CPU] nanoseconds of the main thread so far (Linux schedstat, one pread of
 * a file kept open; null elsewhere). Call it on the main thread: the first call opens the file.
 */
export function mainThreadSchedNs(): [number, number] | null {
  if (schedFd === undefined) {
    try {
      // Opened on the main thread, so /proc/thread-self is the main thread's (the timer runs there too).
      schedFd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      schedFd = null;
    }
  }
  if (schedFd === null) return null;
  try {
    const n = readSync(schedFd, buffer, 0, buffer.length, 0);
    const [run, wait] = buffer.toString('latin1', 0, n).split(' ');
    return [Number(run), Number(wait)];
  } catch {
    closeSync(schedFd);
    schedFd = null;
    return null;
  }
}

function gcWithin(from: number, to: number): number {
  let total = 0;
  for (const [start, end] of pauses) total += Math.max(0, Math.min(end, to) - Math.max(start, from));
  return total;
}

const mark = (at: number, s: [number, number] | null): Mark => ({ at, run: s?.[0] ?? 0, wait: s?.[1] ?? 0 });

const round = (ms: number) => Math.round(ms * 100) / 100;

function tick(): void {
  const at = performance.now();
  const s = mainThreadSchedNs();
  const now = mark(at, s);
  for (const ref of windows) {
    const w = ref.deref();
    if (!w) {
      windows.delete(ref);
      continue;
    }
    const from = w.opened.at > last.at ? w.opened : last;
    const gap = at - from.at;
    if (w.largest && w.largest.ms >= gap) continue;
    const ran = s ? (now.run - from.run) / 1e6 : null;
    const waited = s ? (now.wait - from.wait) / 1e6 : null;
    w.largest = {
      ms: round(gap),
      ran_ms: ran === null ? null : round(ran),
      waited_for_cpu_ms: waited === null ? null : round(waited),
      off_cpu_ms: ran === null || waited === null ? null : round(Math.max(0, gap - ran - waited)),
      gc_ms: round(gcWithin(from.at, at)),
    };
    w.span = [from.at, at];
  }
  last = now;
  if (windows.size === 0) {
    clearInterval(timer);
    timer = undefined;
    return;
  }
  const activity = activitySeen();
  if (activity !== seen) {
    seen = activity;
    quietSince = at;
  } else if (at - quietSince >= idleMs) sleep();
}

function start(): void {
  last = mark(performance.now(), mainThreadSchedNs());
  quietSince = last.at;
  seen = activitySeen();
  timer = setInterval(tick, TICK_MS);
  timer.unref();
}

function sleep(): void {
  clearInterval(timer);
  timer = undefined;
  asleep = true;
  for (const listener of stateListeners) listener(false);
  wakeOnActivity(wake);
}

function wake(): void {
  if (!asleep) return;
  asleep = false;
  // The time asleep is not a gap: the next one is measured from now.
  if (windows.size > 0 && timer === undefined) start();
  for (const listener of stateListeners) listener(true);
}

/** A new window: its `largest` follows the longest gap from now on. */
export function openStallWindow(): StallWindow {
  const opened = mark(performance.now(), mainThreadSchedNs());
  const w: StallWindow = { largest: null, span: [0, 0], opened };
  windows.add(new WeakRef(w));
  if (asleep) wake();
  else if (!timer) start();
  return w;
}

/**
 * A GC pause (metrics.ts's observer reports every one). Observers hear of a pause a little
 * after it: one inside a gap the timer has already measured is added to that gap here.
 */
export function recordGcPause(start: number, duration: number): void {
  const end = start + duration;
  pauses.push([start, end]);
  if (pauses.length > MAX_PAUSES) pauses.splice(0, pauses.length - MAX_PAUSES);
  for (const ref of windows) {
    const w = ref.deref();
    if (!w?.largest) continue;
    const overlap = Math.min(end, w.span[1]) - Math.max(start, w.span[0]);
    if (overlap > 0) w.largest = { ...w.largest, gc_ms: round(w.largest.gc_ms + overlap) };
  }
}
