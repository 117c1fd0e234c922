import { z } from 'zod';
import type { Services } from '../services.js';
import { ApiError } from '../errors.js';
import { defineControl, type ControlRoute } from '../control/route.js';
import { FaultSpec } from '../../contract/faults.js';
import { PRESETS } from './presets.js';
import type { Fault } from './set.js';

// The control API of fault injection: add, list, remove and clear faults, read the log of
// those that fired, list and apply presets. `svc emulator faults …`, the dashboard and the
// testing API all come through here.

const shown = (f: Fault) => ({ ...f, ...(f.until_ms !== undefined && { until: new Date(f.until_ms).toISOString() }) });

function applyPreset(s: Services, name: string) {
  const preset = PRESETS.find((p) => p.name === name);
  if (!preset) throw new ApiError('NOT_FOUND', `No fault preset named "${name}"; the presets are ${PRESETS.map((p) => p.name).join(', ')}.`);
  return { preset: preset.name, faults: preset.faults.map((f) => shown(s.faults.add(FaultSpec.parse(f)))) };
}

export const faultControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/faults',
    summary: 'Faults in force, oldest first (the first that matches fires)',
    handler: (s) => ({ faults: s.faults.list().map(shown) }),
  }),
  defineControl({
    method: 'post',
    path: '/faults',
    summary: 'Add a fault (API: status, latency, hang, reset, truncate, before or after commit; deliveries: duplicate, drop, delay; provider: down)',
    status: 201,
    body: FaultSpec,
    handler: (s, { body }) => shown(s.faults.add(body)),
  }),
  defineControl({
    method: 'post',
    path: '/faults/clear',
    summary: 'Remove every fault',
    handler: (s) => ({ cleared: s.faults.clear() }),
  }),
  defineControl({
    method: 'delete',
    path: '/faults/:id',
    summary: 'Remove one fault',
    handler: (s, { params }) => {
      if (!s.faults.remove(params.id)) throw new ApiError('NOT_FOUND', `No fault ${params.id} (svc emulator faults list).`);
      return { removed: params.id };
    },
  }),
  defineControl({
    method: 'get',
    path: '/faults/log',
    summary: 'Faults that fired, oldest first (the last 500)',
    query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).optional() }),
    handler: (s, { query }) => ({ entries: s.faults.entries().slice(-(query.limit ?? 500)) }),
  }),
  defineControl({
    method: 'get',
    path: '/faults/presets',
    summary: 'Named fault sets',
    handler: () => ({ presets: PRESETS }),
  }),
  defineControl({
    method: 'post',
    path: '/faults/presets/:name/apply',
    summary: 'Add every fault of a preset',
    status: 201,
    handler: (s, { params }) => applyPreset(s, params.name),
  }),
];
