import type { KeyRecord } from '../resources/merchants/records.js';
import type { RequestWatch } from '../request-log/record.js';
import type { RouteTally } from '../coverage.js';

// What a request carries from one layer to the next, declared once: express types any other
// res.locals value as `any` (test/architecture.test.ts refuses a name not declared here).
declare global {
  namespace Express {
    interface Locals {
      traceId: string; // set first, on every request (app.ts)
      keyRecord?: KeyRecord; // the key a /v1 request or the live stream authenticated with, once known
      requestLog?: RequestWatch; // the /v1 request's entry in the making (request-log/record.ts)
      coverage?: RouteTally; // the /v1 route's coverage counters, told the answer (coverage.ts)
    }
  }
}
