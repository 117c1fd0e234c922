import type { z } from 'zod';
import type { MerchantContext } from '../services.js';
import type { Transaction } from '../store/store.js';
import { ROUTES, type RouteFacts, type RouteName } from '../../contract/routes.js';
import { ROUTE_SCHEMAS, type ParsedIn, type RouteSchemas } from '../../contract/route-schemas.js';

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

/** Express's (and OpenAPI's) name of each method. */
export const LOWER_METHOD = { GET: 'get', POST: 'post', DELETE: 'delete' } as const;

/** What the gateway mounts: one route's facts, its schemas and its handler. */
export interface RouteDef extends Omit<RouteFacts, 'method'>, RouteSchemas {
  name: RouteName;
  method: (typeof LOWER_METHOD)[RouteFacts['method']];
  handler(ctx: MerchantContext, input: RouteInput<unknown, unknown, unknown>, tx: Transaction): unknown;
}

type Schemas<N extends RouteName> = (typeof ROUTE_SCHEMAS)[N];

/**
 * A route's handler, typed by the contract: its input is what the route's schemas parse to, and
 * it must return the shape of the route's response schema — a handler that returns anything
 * else does not compile.
 */
type Handler<N extends RouteName> = (
  ctx: MerchantContext,
  input: RouteInput<ParsedIn<Schemas<N>, 'body'>, ParsedIn<Schemas<N>, 'query'>, ParsedIn<Schemas<N>, 'params'>>,
  tx: Transaction,
) => z.input<Schemas<N>['response']>;

/** Binds the emulator's handler to the contract's route `name`. */
export function defineRoute<N extends RouteName>(name: N, handler: Handler<N>): RouteDef {
  const facts: RouteFacts = ROUTES[name];
  // The gateway parses the input with these very schemas before calling.
  return { ...facts, ...ROUTE_SCHEMAS[name], name, method: LOWER_METHOD[facts.method], handler };
}
