import { parseDuration } from '../../contract/formats.js';
import { EMULATOR_IDENTITY } from '../../contract/control/routes.js';
import { clockRoom, MAX_CLOCK_ISO } from '../clock.js';
import { invalid } from '../errors.js';
import { listKeys } from '../fixtures.js';
import { defineControl, type ControlRoute } from './route.js';
import { metricsRoutes } from './metrics.js';
import { isoMicros } from '../ids.js';
import { pruneExpired } from '../retention.js';
import type { Services } from '../services.js';
import { messageOf } from '../../contract/errors.js';

// The emulator's own control routes: identity, keys, store maintenance, the clock, metrics, coverage.
// Resources add theirs in the registry (payees, cards, approvals, deliveries).

export const clockState = (s: Pick<Services, 'clock' | 'scheduler'>) => ({
  mode: s.clock.mode,
  now: isoMicros(s.clock.now()),
  pending_timers: s.scheduler.pending(),
});

export const controlRoutes: ControlRoute[] = [
  defineControl('health', { handler: (s) => ({ ok: true, service: EMULATOR_IDENTITY, allowed_hosts: s.config.allowedHosts }) }),
  defineControl('keys', { handler: (s) => ({ keys: listKeys(s) }) }),
  defineControl('compactStore', {
    run: async (s) => {
      // Everything to disk: the request log's waiting entries too (request-log/log-file.ts).
      s.requestLog.flush();
      await s.store.flush();
      return { compacted: true };
    },
  }),
  defineControl('pruneStore', { run: (s) => ({ pruned: pruneExpired(s) }) }),
  defineControl('clock', { handler: (s) => clockState(s) }),
  defineControl('advanceClock', {
    run: async (s, { body }) => {
      let ms: number;
      let field = 'ms';
      if (body.ms !== undefined) ms = body.ms;
      else if (body.by !== undefined) {
        field = 'by';
        try {
          ms = parseDuration(body.by);
        } catch (err) {
          throw invalid('by', messageOf(err));
        }
      } else throw invalid('body', 'give "by" (e.g. "2h") or "ms"');
      // The clock must stay where dates and stamps are exact (clock.ts, MAX_CLOCK_MS).
      const room = clockRoom(s.clock);
      if (ms > room) throw invalid(field, `would move the clock past ${MAX_CLOCK_ISO}, the latest time it can show; it can move at most ${room} ms from ${new Date(s.clock.now()).toISOString()}`);
      // Every item due in the window runs at its own time, its async work (a webhook attempt)
      // finished before the next (scheduler/scheduler.ts); the answer comes once all of it has.
      try {
        await s.scheduler.advance(ms);
      } catch (err) {
        // An advance queued behind another one that took the clock too close to the bound.
        if (err instanceof RangeError) throw invalid(field, err.message);
        throw err;
      }
      return clockState(s);
    },
  }),
  ...metricsRoutes,
  // Integration coverage (coverage.ts); ?ignore= holds comma-separated patterns.
  defineControl('coverage', { run: (s, { query }) => s.coverage.report(query.ignore?.split(',').map((p) => p.trim()).filter(Boolean)) }),
  defineControl('resetCoverage', {
    run: (s) => {
      s.coverage.reset();
      return s.coverage.report();
    },
  }),
];
