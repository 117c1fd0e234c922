import type { z } from 'zod';
import type { MerchantContext } from '../services.js';
import type { Transaction } from '../store/store.js';
import type { ErrorCode } from '../schema/errors.js';
import type { IdempotencyPolicy } from './idempotency.js';
import type { SCOPES } from '../schema/common.js';

// A merchant route, declared once as data. The gateway (gateway/mount.ts) wraps every route
// in the same chain — trace id, auth, scope, rate limit, idempotency, validation, envelope —
// and the OpenAPI generator reads the same declaration, so the document cannot drift from
// what the emulator does.

export type Scope = (typeof SCOPES)[number];

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

export interface RouteDef<B = unknown, Q = unknown, P = unknown> {
  method: 'get' | 'post' | 'delete';
  /** Express path, e.g. /v1/api/payment-links/:id */
  path: string;
  scope: Scope;
  summary: string;
  /** Needs a business account (403 BUSINESS_ACCOUNT_REQUIRED otherwise). */
  business?: boolean;
  idempotency?: IdempotencyPolicy;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** Status on success: 201 for routes that create a resource. */
  status?: 200 | 201;
  /** Schema of `data` in the success envelope (for the OpenAPI document and the CLI's types). */
  response: z.ZodType;
  /** Error codes this route can answer with beyond the gateway's own (for the OpenAPI document). */
  errors?: ErrorCode[];
  handler(ctx: MerchantContext, input: RouteInput<B, Q, P>, tx: Transaction): unknown;
}

/** Keeps the generic types of a route while collecting routes into one array. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(def: RouteDef<B, Q, P>): RouteDef {
  return def as unknown as RouteDef;
}
