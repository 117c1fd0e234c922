import type { z } from 'zod';
import type { Services } from '../services.js';
import type { Transaction } from '../store/store.js';

// A control-API route: like a merchant route, but called by the emulator's own tools. The
// router opens one store transaction per request, as the gateway does, and hands it to
// `handler`, so a dashboard action commits whole or not at all and domain functions never
// open their own. Lifecycle routes (clock moves, reset, restore, compaction, stop) use `run`
// instead: they await, or fire timers whose callbacks are units of work of their own.

interface ControlRouteBase<B, Q> {
  method: 'get' | 'post' | 'delete';
  path: string;
  summary: string;
  body?: z.ZodType<B>;
  /** Validates the query string (422 VALIDATION_ERROR naming the parameter). */
  query?: z.ZodType<Q>;
  status?: 200 | 201;
}

export type ControlInput<B, Q> = { body: B; params: Record<string, string>; query: Q };

export type ControlRoute<B = unknown, Q = Record<string, unknown>> = ControlRouteBase<B, Q> &
  (
    | { handler(services: Services, input: ControlInput<B, Q>, tx: Transaction): unknown; run?: never }
    | { run(services: Services, input: ControlInput<B, Q>): unknown | Promise<unknown>; handler?: never }
  );

export const defineControl = <B, Q = Record<string, unknown>>(route: ControlRoute<B, Q>) => route as unknown as ControlRoute;
