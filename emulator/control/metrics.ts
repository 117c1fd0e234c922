import { DELIVERIES } from '../webhooks/records.js';
import { constants, monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import type { Services } from '../services.js';
import { IDEMPOTENCY } from '../gateway/idempotency.js';
import { EVENTS } from '../resources/events/outbox.js';
import { PAYMENT_LINKS } from '../resources/payment-links/domain.js';
import { PAYMENTS } from '../resources/payments/domain.js';
import { defineControl, type ControlRoute } from './route.js';
import { isoMicros } from '../ids.js';
import { heapTuning } from '../process-heap.js';
import { helperThreads } from '../helper-threads.js';
import { mainThreadSchedNs, onProbeState, openStallWindow, recordGcPause, type StallWindow } from './stall-probe.js';

// Runtime metrics of the emulator process, for `npm run bench` and for users who want to
// know whether their load made the emulator stall: how late the event loop ran (a long
// synchronous task — a big JSON.stringify, an O(n) scan — shows up here, not in a request
// log), garbage-collection pauses (the usual other cause), CPU time (comparable even on a
// busy machine, where wall-clock figures are not), time spent waiting for a CPU (Linux: a
// busy machine stalls the loop too), memory, and how many records the store holds. Every
// figure covers the window since start or since the last reset.
//
// One monitor per emulator (keyed by its Services, so emulators started side by side in one
// process keep separate windows). The event-loop monitor samples every 10 ms while anything
// runs (it sleeps after 30 s without activity: activity.ts); its timer is
// unref'd by Node and keeps no process alive. A stall shorter than the resolution may be
// missed; a longer one is recorded as how late the timer fired.

const RESOLUTION_MS = 10;

interface Monitor {
  histogram: IntervalHistogram;
  since: number;
  cpuAtStart: NodeJS.CpuUsage;
  waitAtStart: number | null;
  gc: { count: number; totalMs: number; maxMs: number; maxKind: string | null };
  stall: StallWindow;
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

const newGcWindow = (): Monitor['gc'] => ({ count: 0, totalMs: 0, maxMs: 0, maxKind: null });

/**
 * Nanoseconds the main thread has spent runnable but waiting for a CPU (Linux schedstat;
 * null elsewhere). A stall with little GC and a large wait was the machine, not the emulator.
 */
const runqueueWaitNs = (): number | null => mainThreadSchedNs()?.[1] ?? null;

const monitors = new WeakMap<Services, Monitor>();

// GC pauses are process-wide, so one observer feeds every live monitor. Monitors are held
// weakly: an emulator that was closed and dropped takes its monitor (and its histogram's
// timer) with it instead of being kept alive by this list.
const gcListeners = new Set<WeakRef<Monitor>>();
let gcObserver: PerformanceObserver | undefined;

// The delay histograms sample on a 10 ms timer of their own: they sleep and wake with the
// stall probe (after 30 s without activity: activity.ts), so an idle emulator does not wake.
onProbeState((running) => {
  for (const ref of gcListeners) {
    const m = ref.deref();
    if (running) m?.histogram.enable();
    else m?.histogram.disable();
  }
});

function observeGc(monitor: Monitor): void {
  gcListeners.add(new WeakRef(monitor));
  gcObserver ??= new PerformanceObserver((list) => {
    const entries = list.getEntries();
    for (const entry of entries) recordGcPause(entry.startTime, entry.duration);
    for (const ref of gcListeners) {
      const m = ref.deref();
      if (!m) {
        gcListeners.delete(ref);
        continue;
      }
      for (const entry of entries) {
        m.gc.count++;
        m.gc.totalMs += entry.duration;
        if (entry.duration > m.gc.maxMs) {
          m.gc.maxMs = entry.duration;
          const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
          m.gc.maxKind = kind === undefined ? null : (GC_KINDS[kind] ?? String(kind));
        }
      }
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
}

/** Starts the monitor of this emulator (idempotent); app.ts calls it when it builds the app. */
export function watchEventLoop(services: Services): Monitor {
  let monitor = monitors.get(services);
  if (!monitor) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    monitor = { histogram, since: Date.now(), cpuAtStart: process.cpuUsage(), waitAtStart: runqueueWaitNs(), gc: newGcWindow(), stall: openStallWindow() };
    monitors.set(services, monitor);
    observeGc(monitor);
    // Opening the window (above) started or woke the probes; the histogram runs with them.
    histogram.enable();
  }
  return monitor;
}

const ns = (v: number) => Math.round(v / 1e4) / 100; // nanoseconds → ms, 2 decimals
const ms2 = (v: number) => Math.round(v * 100) / 100;

function snapshot(services: Services) {
  const m = watchEventLoop(services);
  const { histogram } = m;
  const empty = histogram.count === 0; // the histogram reports huge sentinels until its first sample
  const cpu = process.cpuUsage(m.cpuAtStart);
  const wait = runqueueWaitNs();
  const memory = process.memoryUsage();
  return {
    since: isoMicros(m.since),
    event_loop_delay_max_ms: empty ? 0 : ns(histogram.max),
    event_loop_delay_p99_ms: empty ? 0 : ns(histogram.percentile(99)),
    event_loop_delay_mean_ms: empty ? 0 : ns(histogram.mean),
    event_loop_delay_samples: histogram.count,
    event_loop_resolution_ms: RESOLUTION_MS,
    /** The longest gap between two ticks of a 10 ms timer, taken apart (stall-probe.ts); null before the first. */
    event_loop_stall_max: m.stall.largest,
    gc_count: m.gc.count,
    gc_pause_total_ms: ms2(m.gc.totalMs),
    gc_pause_max_ms: ms2(m.gc.maxMs),
    /** minor (scavenge), major (mark-compact), incremental or weakcb: which pause was longest. */
    gc_pause_max_kind: m.gc.maxKind,
    cpu_user_ms: Math.round(cpu.user / 1000),
    cpu_system_ms: Math.round(cpu.system / 1000),
    cpu_wait_ms: wait === null || m.waitAtStart === null ? null : Math.round((wait - m.waitAtStart) / 1e6),
    rss_bytes: memory.rss,
    heap_used_bytes: memory.heapUsed,
    /** V8 flags the emulator set for itself (process-heap.ts); [] in a process it does not own. */
    heap_tuning: [...heapTuning()],
    /** On one CPU, the nice value the process's other threads got (helper-threads.ts), or null. */
    helper_threads: helperThreads(),
    store_counts: storeCounts(services),
    request_log: services.requestLog.status(),
  };
}

function storeCounts(services: Services): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of [PAYMENTS, PAYMENT_LINKS, IDEMPOTENCY, EVENTS, DELIVERIES]) counts[c.name] = services.store.count(c);
  return counts;
}

export const metricsRoutes: ControlRoute[] = [
  defineControl('metrics', { handler: (s) => snapshot(s) }),
  defineControl('resetMetrics', {
    handler: (s) => {
      const m = watchEventLoop(s);
      m.histogram.reset();
      m.since = Date.now();
      m.cpuAtStart = process.cpuUsage();
      m.waitAtStart = runqueueWaitNs();
      m.gc = newGcWindow();
      m.stall = openStallWindow();
      return snapshot(s);
    },
  }),
];
