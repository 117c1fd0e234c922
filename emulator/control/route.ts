import type { z } from 'zod';
import type { Services } from '../services.js';
import type { Transaction } from '../store/store.js';
import { CONTROL_ROUTES, type ControlRouteFacts, type ControlRouteName } from '../../contract/control/routes.js';
import { CONTROL_SCHEMAS } from '../../contract/control/schemas.js';
import type { ParsedIn, RouteSchemas } from '../../contract/route-schemas.js';
import { LOWER_METHOD } from '../gateway/route.js';

// A control-API route: the contract's facts and schemas for one route name
// (contract/control/routes.ts, schemas.ts) with the emulator's handler bound to it, as
// gateway/route.ts does for merchant routes. The router opens one store transaction per
// request, as the gateway does, and hands it to `handler`, so a dashboard action commits whole
// or not at all and domain functions never open their own. Lifecycle routes (clock moves,
// reset, restore, compaction, stop) use `run` instead: they await, or fire timers whose
// callbacks are units of work of their own.

interface ControlInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

// Path parameters as Express gives them (a wildcard's is a list); no Express type: the package's declarations name none.
type AnyInput = ControlInput<unknown, unknown, Record<string, string | string[]>>;

/** What the control router mounts: one route's facts, its schemas and its handler. */
export interface ControlRoute extends Omit<ControlRouteFacts, 'method'>, RouteSchemas {
  name: ControlRouteName;
  method: (typeof LOWER_METHOD)[ControlRouteFacts['method']];
  /** How a body the schema refuses is worded (default: describeZodError). */
  bodyProblem?: (error: z.ZodError) => string;
  handler?(services: Services, input: AnyInput, tx: Transaction): unknown;
  run?(services: Services, input: AnyInput): unknown;
}

type Schemas<N extends ControlRouteName> = (typeof CONTROL_SCHEMAS)[N];
/** Path parameters are strings; the route's params schema names them (its handler checks their form). */
type Params<S> = S extends { params: infer Z extends z.ZodType } ? { [K in keyof z.output<Z>]: string } : Record<string, never>;
type Input<N extends ControlRouteName> = ControlInput<ParsedIn<Schemas<N>, 'body'>, ParsedIn<Schemas<N>, 'query'>, Params<Schemas<N>>>;
/** What a handler must return: the input of the route's response schema, so a wrong shape does not compile. */
type Answer<N extends ControlRouteName> = z.input<Schemas<N>['response']>;

type ControlHandler<N extends ControlRouteName> = (services: Services, input: Input<N>, tx: Transaction) => Answer<N>;
type ControlRunner<N extends ControlRouteName> = (services: Services, input: Input<N>) => Answer<N> | Promise<Answer<N>>;

type Implementation<N extends ControlRouteName> = ({ handler: ControlHandler<N>; run?: never } | { run: ControlRunner<N>; handler?: never }) & {
  bodyProblem?: (error: z.ZodError) => string;
};

/** Binds the emulator's handler to the contract's control route `name`. */
export function defineControl<N extends ControlRouteName>(name: N, impl: Implementation<N>): ControlRoute {
  const facts: ControlRouteFacts = CONTROL_ROUTES[name];
  // The router parses body and query with these very schemas before calling.
  return { ...facts, ...CONTROL_SCHEMAS[name], name, method: LOWER_METHOD[facts.method], ...impl };
}
