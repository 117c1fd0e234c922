import type { z } from 'zod';
import type { MerchantContext } from '../services.js';
import type { Transaction } from '../store/store.js';
import { ROUTES, type RouteFacts, type RouteName } from '../../contract/routes.js';
import { ROUTE_SCHEMAS, type RouteSchemas } from '../../contract/route-schemas.js';

// A merchant route: the contract's facts and schemas for one route name (contract/routes.ts,
// contract/route-schemas.ts) with the emulator's handler bound to it. The gateway
// (gateway/mount.ts) wraps every route in the same chain — trace id, auth, scope, rate limit,
// idempotency, validation, envelope — and the OpenAPI generator reads the same declaration,
// so neither the document nor the client can drift from what the emulator does.

export type { Scope } from '../../contract/routes.js';

interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

/** What the gateway mounts: one route's facts, its schemas and its handler. */
export interface RouteDef extends Omit<RouteFacts, 'method'>, RouteSchemas {
  name: RouteName;
  /** Express's method name. */
  method: 'get' | 'post' | 'delete';
  handler(ctx: MerchantContext, input: RouteInput<unknown, unknown, unknown>, tx: Transaction): unknown;
}

type Schemas<N extends RouteName> = (typeof ROUTE_SCHEMAS)[N];
/** The parsed value of one part of the request, or undefined when the route declares no schema for it. */
type Parsed<S, K extends string> = S extends { [P in K]: infer Z extends z.ZodType } ? z.output<Z> : undefined;

/**
 * A route's handler, typed by the contract: its input is what the route's schemas parse to, and
 * it must return the shape of the route's response schema — a handler that returns anything
 * else does not compile.
 */
type Handler<N extends RouteName> = (
  ctx: MerchantContext,
  input: RouteInput<Parsed<Schemas<N>, 'body'>, Parsed<Schemas<N>, 'query'>, Parsed<Schemas<N>, 'params'>>,
  tx: Transaction,
) => z.input<Schemas<N>['response']>;

/** Binds the emulator's handler to the contract's route `name`. */
export function defineRoute<N extends RouteName>(name: N, handler: Handler<N>): RouteDef {
  const facts: RouteFacts = ROUTES[name];
  const schemas: RouteSchemas = ROUTE_SCHEMAS[name];
  return {
    ...facts,
    ...schemas,
    name,
    method: facts.method.toLowerCase() as RouteDef['method'],
    // The gateway parsed the input with these very schemas before calling.
    handler: handler as RouteDef['handler'],
  };
}
