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
  defineControl('listFaults', { handler: (s) => ({ faults: s.faults.list().map(shown) }) }),
  defineControl('addFault', { handler: (s, { body }) => shown(s.faults.add(body)) }),
  defineControl('clearFaults', { handler: (s) => ({ cleared: s.faults.clear() }) }),
  defineControl('removeFault', {
    handler: (s, { params }) => {
      if (!s.faults.remove(params.id)) throw new ApiError('NOT_FOUND', `No fault ${params.id} (svc emulator faults list).`);
      return { removed: params.id };
    },
  }),
  defineControl('faultLog', { handler: (s, { query }) => ({ entries: s.faults.entries().slice(-(query.limit ?? 500)) }) }),
  defineControl('faultPresets', { handler: () => ({ presets: PRESETS }) }),
  defineControl('applyFaultPreset', { handler: (s, { params }) => applyPreset(s, params.name) }),
];
