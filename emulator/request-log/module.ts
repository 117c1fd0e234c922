import type { ResourceModule } from '../registry.js';
import type { Services } from '../services.js';
import { REQUEST_LOG } from './records.js';
import { requestLogControlRoutes } from './control.js';
import { listenForWrites } from './record.js';

// The request log: every /v1 request, part of the world (reset clears it, snapshots and
// restarts keep it) but kept beside the store (log.ts), bounded by --request-log and cut by
// --retain-days (retention.ts).

const following = new WeakMap<Services, () => void>();

export const requestLogModule: ResourceModule = {
  name: 'request-log',
  besideStore: [REQUEST_LOG],
  routes: [],
  control: requestLogControlRoutes,
  subscribe: listenForWrites,
  // Retention's sweep hears of an entry as of a store write when it is the only one: its due time
  // is the oldest entry's expiry, which a newer entry never brings forward.
  // A clock advance first makes the captured requests entries, so their retention is in its window.
  start(services) {
    const log = services.requestLog;
    const unfollow = log.onEntry((e) => {
      if (log.isOldest(e)) services.scheduler.noteWrites([{ c: REQUEST_LOG.name, id: '', v: { id: '', at_ms: e.at_ms } }]);
    });
    const unhook = services.scheduler.onBeforeAdvance(() => log.settle());
    following.set(services, () => {
      unfollow();
      unhook();
    });
  },
  async stop(services) {
    following.get(services)?.();
    following.delete(services);
  },
};
