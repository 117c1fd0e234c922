import { DELIVERIES } from '../webhooks/records.js';
import type { Services } from '../services.js';
import { IDEMPOTENCY } from '../gateway/idempotency.js';
import { EVENTS } from '../resources/events/outbox.js';
import { PAYMENT_LINKS } from '../resources/payment-links/domain.js';
import { PAYMENTS } from '../resources/payments/domain.js';
import { defineControl, type ControlRoute } from './route.js';
import { isoMicros } from '../ids.js';
import { RESOLUTION_MS } from '../performance/loop-monitor.js';

// Runtime metrics of the emulator process, for `npm run bench` and for users who want to
// know whether their load made the emulator stall: how late the event loop ran, garbage-
// collection pauses and the largest stall taken apart (the emulator's LoopMonitor:
// performance/loop-monitor.ts), CPU time (comparable even on a busy machine, where wall-clock
// figures are not), time spent waiting for a CPU (Linux: a busy machine stalls the loop too),
// memory, and how many records the store holds. Every figure covers the window since start or
// since the last reset. A stall shorter than the 10 ms resolution may be missed; a longer one
// is recorded as how late the timer fired.

const ns = (v: number) => Math.round(v / 1e4) / 100; // nanoseconds → ms, 2 decimals
const ms2 = (v: number) => Math.round(v * 100) / 100;

function snapshot(services: Services) {
  const m = services.monitor;
  const { histogram } = m;
  const empty = histogram.count === 0; // the histogram reports huge sentinels until its first sample
  const cpu = process.cpuUsage(m.cpuAtStart);
  const wait = m.schedNs()?.[1] ?? null;
  const memory = process.memoryUsage();
  return {
    since: isoMicros(m.since),
    event_loop_delay_max_ms: empty ? 0 : ns(histogram.max),
    event_loop_delay_p99_ms: empty ? 0 : ns(histogram.percentile(99)),
    event_loop_delay_mean_ms: empty ? 0 : ns(histogram.mean),
    event_loop_delay_samples: histogram.count,
    event_loop_resolution_ms: RESOLUTION_MS,
    /** The longest gap between two ticks of a 10 ms timer, taken apart; null before the first. */
    event_loop_stall_max: m.largest,
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
    /** V8 flags the emulator set for itself (performance/heap.ts); [] in a process it does not own. */
    heap_tuning: m.tuning.heap,
    /** On one CPU, the nice value the process's other threads got (performance/helper-threads.ts), or null. */
    helper_threads: m.tuning.helperThreads,
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
      s.monitor.reset();
      return snapshot(s);
    },
  }),
];
