import { parseDuration } from '../../contract/formats.js';
import { z } from 'zod';
import { clockRoom, MAX_CLOCK_ISO } from '../clock.js';
import { invalid } from '../errors.js';
import { listKeys } from '../fixtures.js';
import { defineControl, type ControlRoute } from './route.js';
import { metricsRoutes } from './metrics.js';
import { isoMicros } from '../ids.js';
import { pruneExpired } from '../retention.js';

// Control routes, one list. Resources add theirs here (payees, cards, approvals, deliveries).

export const clockState = (s: { clock: { mode: string; now(): number; pending(): number } }) => ({
  mode: s.clock.mode,
  now: isoMicros(s.clock.now()),
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
    method: 'post',
    path: '/store/compact',
    summary: 'Compact the store now (snapshot + fresh journal segment); it also runs by itself',
    run: async (s) => {
      await s.store.flush();
      return { compacted: true };
    },
  }),
  defineControl({
    method: 'post',
    path: '/store/prune',
    summary: 'Drop what retention lets go (expired idempotency records, old events, deliveries, OTP messages)',
    run: (s) => ({ pruned: pruneExpired(s) }),
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
    run: (s, { body }) => {
      let ms: number;
      let field = 'ms';
      if (body.ms !== undefined) ms = body.ms;
      else if (body.by !== undefined) {
        field = 'by';
        try {
          ms = parseDuration(body.by);
        } catch (err) {
          throw invalid('by', (err as Error).message);
        }
      } else throw invalid('body', 'give "by" (e.g. "2h") or "ms"');
      // The clock must stay where dates and stamps are exact (clock.ts, MAX_CLOCK_MS).
      const room = clockRoom(s.clock);
      if (ms > room) throw invalid(field, `would move the clock past ${MAX_CLOCK_ISO}, the latest time it can show; it can move at most ${room} ms from ${new Date(s.clock.now()).toISOString()}`);
      s.clock.advance(ms);
      pruneExpired(s); // what aged out with this advance goes now, not at the next timer
      return clockState(s);
    },
  }),
  ...metricsRoutes,
];
