import type { z } from 'zod';
import type { Services } from '../services.js';

/** A control-API route: like a merchant route, but called by the emulator's own tools. */
export interface ControlRoute<B = unknown> {
  method: 'get' | 'post' | 'delete';
  path: string;
  summary: string;
  body?: z.ZodType<B>;
  status?: 200 | 201;
  handler(services: Services, input: { body: B; params: Record<string, string>; query: Record<string, unknown> }): unknown;
}

export const defineControl = <B>(route: ControlRoute<B>) => route as unknown as ControlRoute;
