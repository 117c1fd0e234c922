import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Services } from '../services.js';
import { IDEMPOTENCY } from '../gateway/idempotency.js';
import { DELIVERIES, EVENTS } from '../resources/events/outbox.js';
import { PAYMENT_LINKS } from '../resources/payment-links/domain.js';
import { PAYMENTS } from '../resources/payments/domain.js';
import { defineControl, type ControlRoute } from './route.js';

// Runtime metrics of the emulator process, for `npm run bench` and for users who want to
// know whether their load made the emulator stall: how late the event loop ran (a long
// synchronous task — a big JSON.stringify, an O(n) scan — shows up here, not in a request
// log), memory, and how many records the store holds.
//
// One monitor per emulator (keyed by its Services, so emulators started side by side in one
// process keep separate windows). It samples every 10 ms; its timer is unref'd by Node and
// keeps no process alive. A stall shorter than the resolution may be missed, one longer is
// recorded as how late the timer fired.

const RESOLUTION_MS = 10;

interface Monitor {
  histogram: IntervalHistogram;
  since: number;
}

const monitors = new WeakMap<Services, Monitor>();

/** Starts the event-loop monitor of this emulator (idempotent); app.ts calls it at creation. */
export function watchEventLoop(services: Services): Monitor {
  let monitor = monitors.get(services);
  if (!monitor) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    monitors.set(services, (monitor = { histogram, since: Date.now() }));
  }
  return monitor;
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100; // nanoseconds → ms, 2 decimals

function snapshot(services: Services) {
  const { histogram, since } = watchEventLoop(services);
  const empty = histogram.count === 0; // the histogram reports huge sentinels until its first sample
  const memory = process.memoryUsage();
  return {
    since: new Date(since).toISOString(),
    event_loop_delay_max_ms: empty ? 0 : ms(histogram.max),
    event_loop_delay_p99_ms: empty ? 0 : ms(histogram.percentile(99)),
    event_loop_delay_mean_ms: empty ? 0 : ms(histogram.mean),
    event_loop_delay_samples: histogram.count,
    event_loop_resolution_ms: RESOLUTION_MS,
    rss_bytes: memory.rss,
    heap_used_bytes: memory.heapUsed,
    store_counts: storeCounts(services),
  };
}

function storeCounts(services: Services): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of [PAYMENTS, PAYMENT_LINKS, IDEMPOTENCY, EVENTS, DELIVERIES]) counts[name] = services.store.count(name);
  return counts;
}

export const metricsRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/metrics',
    summary: 'Event-loop delay (max, p99, mean) since start or the last reset, memory, store sizes',
    handler: (s) => snapshot(s),
  }),
  defineControl({
    method: 'post',
    path: '/metrics/reset',
    summary: 'Start a new measuring window for the event-loop delay figures',
    handler: (s) => {
      const monitor = watchEventLoop(s);
      monitor.histogram.reset();
      monitor.since = Date.now();
      return snapshot(s);
    },
  }),
];
