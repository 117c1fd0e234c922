import { z } from 'zod';
import { parseDuration } from '../clock.js';
import { invalid } from '../schema/errors.js';
import { listKeys } from '../fixtures.js';
import { defineControl, type ControlRoute } from './route.js';
import { metricsRoutes } from './metrics.js';

// Control routes, one list. Resources add theirs here (payees, cards, approvals, deliveries).

const clockState = (s: { clock: { mode: string; now(): number; pending(): number } }) => ({
  mode: s.clock.mode,
  now: new Date(s.clock.now()).toISOString(),
  pending_timers: s.clock.pending(),
});

/** What GET /_emulator/health names itself: `svc` refuses emulator-only commands against any host that does not. */
export const EMULATOR_IDENTITY = 'svc-emulator';

export const controlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/health',
    summary: 'Liveness, and the identity the CLI checks before an emulator-only action',
    handler: () => ({ ok: true, service: EMULATOR_IDENTITY }),
  }),
  defineControl({
    method: 'get',
    path: '/keys',
    summary: 'The API keys the emulator knows (seeded from fixtures)',
    handler: (s) => ({ keys: listKeys(s) }),
  }),
  defineControl({
    method: 'get',
    path: '/clock',
    summary: "The emulator's clock",
    handler: (s) => clockState(s),
  }),
  defineControl({
    method: 'post',
    path: '/clock/advance',
    summary: 'Move the clock forward; everything that became due fires',
    body: z.strictObject({ by: z.string().optional(), ms: z.int().min(0).optional() }),
    handler: (s, { body }) => {
      let ms: number;
      if (body.ms !== undefined) ms = body.ms;
      else if (body.by !== undefined) {
        try {
          ms = parseDuration(body.by);
        } catch (err) {
          throw invalid('by', (err as Error).message);
        }
      } else throw invalid('body', 'give "by" (e.g. "2h") or "ms"');
      s.clock.advance(ms);
      return clockState(s);
    },
  }),
  ...metricsRoutes,
];
