import type { z } from 'zod';
import type { Services } from '../services.js';

/** A control-API route: like a merchant route, but called by the emulator's own tools. */
export interface ControlRoute<B = unknown, Q = Record<string, unknown>> {
  method: 'get' | 'post' | 'delete';
  path: string;
  summary: string;
  body?: z.ZodType<B>;
  /** Validates the query string (422 VALIDATION_ERROR naming the parameter). */
  query?: z.ZodType<Q>;
  status?: 200 | 201;
  handler(services: Services, input: { body: B; params: Record<string, string>; query: Q }): unknown | Promise<unknown>;
}

export const defineControl = <B, Q = Record<string, unknown>>(route: ControlRoute<B, Q>) => route as unknown as ControlRoute;
