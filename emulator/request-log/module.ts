import type { ResourceModule } from '../registry.js';
import { REQUEST_LOG } from './records.js';
import { requestLogControlRoutes } from './control.js';
import { flushRequestLog, listenForWrites } from './record.js';

// The request log: every /v1 request as a record of the world (reset clears it, snapshots and
// restarts keep it), bounded by --request-log and cut by --retain-days (retention.ts).
export const requestLogModule: ResourceModule = {
  name: 'request-log',
  collections: [REQUEST_LOG],
  routes: [],
  control: requestLogControlRoutes,
  subscribe: listenForWrites,
  // The last turn's entries go in before the store closes.
  stop: async (services) => flushRequestLog(services.store),
};
