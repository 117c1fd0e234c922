import { z } from 'zod';
import { Environment } from '../common.js';
import { DURATION_PATTERN } from '../formats.js';
import { EMULATOR_IDENTITY } from './routes.js';

// The control API's answers about the emulator itself: identity, keys, clock, store
// maintenance and runtime metrics (emulator/control/routes.ts, metrics.ts).

export const Health = z.object({
  ok: z.literal(true),
  service: z.literal(EMULATOR_IDENTITY).meta({ description: 'The CLI refuses emulator-only commands against a host that answers anything else' }),
  allowed_hosts: z
    .array(z.string())
    .meta({ description: "The emulator's --allow-host names: plain http:// to them is a test host, as for loopback (`svc webhooks check` reads them)" }),
});

export const EmulatorKey = z
  .object({
    name: z.string().meta({ description: 'The fixture name of the key, e.g. acme-test' }),
    key: z.string(),
    environment: Environment,
    scopes: z.array(z.string()),
    merchant_id: z.string(),
    revoked: z.boolean(),
  })
  .meta({ id: 'EmulatorKey' });

export const KeyList = z.object({ keys: z.array(EmulatorKey) });

export const ClockState = z
  .object({
    mode: z.enum(['system', 'manual']).meta({ description: 'manual: time moves only when told (POST /_emulator/clock/advance)' }),
    now: z.string().meta({ description: 'ISO-8601, microseconds, UTC' }),
    pending_timers: z.int().min(0).meta({ description: 'Work waiting for a later time: webhook attempts, payout answers, MoMo clearings, the retention sweep, requests held on the clock' }),
  })
  .meta({ id: 'ClockState' });

/** `by` is a duration ("90s", "2h", "1d"); `ms` the same in milliseconds. One of the two. */
export const AdvanceClock = z
  .strictObject({
    by: z.string().optional().meta({ description: 'A duration such as 90s, 2h, 1h30m or 1d (units ms, s, m, h, d; decimals allowed)', pattern: DURATION_PATTERN }),
    ms: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Milliseconds; wins over by when both are given. The clock never passes 2200-01-01T00:00:00Z: an advance that would is 422, naming how far it can still move' }),
  })
  .refine((b) => b.by !== undefined || b.ms !== undefined, 'give "by" (e.g. "2h") or "ms"')
  .meta({ anyOf: [{ required: ['by'] }, { required: ['ms'] }] });

export const Compacted = z.object({ compacted: z.literal(true) });

export const Pruned = z.object({
  pruned: z.object({
    idempotency: z.int().min(0),
    events: z.int().min(0),
    deliveries: z.int().min(0),
    otp: z.int().min(0),
    requests: z.int().min(0).meta({ description: 'Request log entries older than --retain-days' }),
  }),
});

const Ms = z.number().min(0);

export const Metrics = z
  .object({
    since: z.string().meta({ description: 'Start of the measuring window (start, or the last POST /_emulator/metrics/reset)' }),
    event_loop_delay_max_ms: Ms,
    event_loop_delay_p99_ms: Ms,
    event_loop_delay_mean_ms: Ms,
    event_loop_delay_samples: z.int().min(0),
    event_loop_resolution_ms: z.int().min(1),
    event_loop_stall_max: z
      .object({
        ms: Ms,
        ran_ms: Ms.nullable(),
        waited_for_cpu_ms: Ms.nullable(),
        off_cpu_ms: Ms.nullable(),
        gc_ms: Ms,
      })
      .nullable()
      .meta({ description: 'The longest gap between two ticks of a 10 ms timer, taken apart (ran, waited for a CPU, off the CPU: Linux only); null before the first' }),
    gc_count: z.int().min(0),
    gc_pause_total_ms: Ms,
    gc_pause_max_ms: Ms,
    gc_pause_max_kind: z.string().nullable().meta({ description: 'minor (scavenge), major (mark-compact), incremental or weakcb' }),
    cpu_user_ms: z.int().min(0),
    cpu_system_ms: z.int().min(0),
    cpu_wait_ms: z.int().nullable().meta({ description: 'Time the main thread waited for a CPU (Linux schedstat); null elsewhere' }),
    rss_bytes: z.int().min(0),
    heap_used_bytes: z.int().min(0),
    heap_tuning: z.array(z.string()).meta({ description: 'V8 flags the emulator set for itself; [] in a process it does not own' }),
    helper_threads: z.object({ nice: z.int(), threads: z.int().min(0) }).nullable().meta({ description: "On one CPU, the nice value the process's other threads got, or null" }),
    store_counts: z.record(z.string(), z.int().min(0)).meta({ description: 'Records per collection, for the big ones' }),
    request_log: z
      .object({
        entries: z.int().min(0),
        unwritten: z.int().min(0).meta({ description: 'Entries not on disk yet (written in batches within 250 ms; a kill -9 loses them)' }),
        write_error: z.string().nullable().meta({ description: 'Why the last write of the log to disk failed, until one succeeds; null when it is written' }),
      })
      .meta({ description: 'The request log (kept beside the store): its size and whether the disk has all of it' }),
  })
  .meta({ id: 'Metrics' });
