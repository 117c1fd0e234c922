import { z } from 'zod';
import { API_KINDS, DELIVERY_KINDS } from '../faults.js';
import { Environment } from '../common.js';

// What the fault routes answer. A fault is sent as contract/faults.ts FaultSpec (durations as
// "2s" or "100ms..2s"); the emulator answers with it parsed (durations in ms, a latency as its
// bounds) plus its id, counters and, for a provider outage, when it ends.

const FaultKind = z.enum([...API_KINDS, ...DELIVERY_KINDS, 'down']);

/** The fields a fault keeps as they were sent. */
const targetFields = {
  route: z.string().optional().meta({ description: '"<METHOD> <path pattern>" (method upper-cased)' }),
  deliveries: z.object({ event_type: z.string().optional(), endpoint_id: z.string().optional() }).optional(),
  provider: z.enum(['payouts', 'momo']).optional(),
  kind: FaultKind,
  status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional(),
  retry_after: z.int().min(0).optional(),
  environment: Environment.optional(),
  key_name: z.string().optional(),
  times: z.int().min(1).optional(),
  probability: z.number().min(0).max(1).optional(),
  seed: z.int().min(0).optional(),
};

export const Fault = z
  .object({
    id: z.string(),
    ...targetFields,
    latency: z.object({ min: z.int().min(0), max: z.int().min(0) }).optional().meta({ description: 'Milliseconds, drawn uniformly between the bounds' }),
    for: z.int().min(0).optional().meta({ description: 'kind down: milliseconds' }),
    after_commit: z.boolean(),
    until_ms: z.number().optional().meta({ description: 'kind down: emulator-clock ms when the provider answers again' }),
    until: z.string().optional().meta({ description: 'kind down: the same as ISO-8601' }),
    remaining: z.int().min(0).nullable().meta({ description: 'Firings left (times); null when unlimited' }),
    fired: z.int().min(0),
    created_at: z.string(),
  })
  .meta({ id: 'Fault' });

export const FaultList = z.object({ faults: z.array(Fault) });

export const FaultLogQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).optional().meta({ description: 'The newest N entries (default 500)' }) });

const FaultLogEntry = z
  .object({
    at: z.string(),
    fault_id: z.string(),
    kind: z.string(),
    target: z.string().meta({ description: 'What it acted on: "POST /v1/api/charges", a delivery id, a provider' }),
    trace_id: z.string().optional(),
    after_commit: z.boolean(),
    detail: z.string().optional(),
  })
  .meta({ id: 'FaultLogEntry' });

export const FaultLog = z.object({ entries: z.array(FaultLogEntry) });

/** A preset's fault as POST /_emulator/faults takes it (durations as text). */
const PresetFault = z.object({
  ...targetFields,
  latency: z.union([z.int().min(0), z.string()]).optional(),
  for: z.union([z.int().min(0), z.string()]).optional(),
  after_commit: z.boolean().optional(),
});

const FaultPreset = z.object({ name: z.string(), description: z.string(), faults: z.array(PresetFault) }).meta({ id: 'FaultPreset' });

export const FaultPresetList = z.object({ presets: z.array(FaultPreset) });

export const AppliedPreset = z.object({ preset: z.string(), faults: z.array(Fault) });

export const FaultsCleared = z.object({ cleared: z.int().min(0) });
export const FaultRemoved = z.object({ removed: z.string() });

export const FaultIdParams = z.object({ id: z.string().meta({ description: 'A fault id (flt_…)' }) });
export const PresetParams = z.object({ name: z.string().meta({ description: 'A preset name from GET /_emulator/faults/presets' }) });
