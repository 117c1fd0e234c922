import type { Services } from './services.js';
import { Scheduler } from './scheduler/scheduler.js';
import { Timestamps } from './ids.js';
import { FaultSet } from './faults/set.js';
import { DeliveryEngine } from './webhooks/engine.js';
import { StreamHub } from './webhooks/stream.js';
import { allTimedWork } from './registry.js';
import { TokenDoor } from './http/token-door.js';
import { Coverage } from './coverage.js';

/** The one place an emulator's parts are made (server.ts, once per emulator): services.ts only names them. */
export function composeServices(given: Pick<Services, 'store' | 'clock' | 'config' | 'log' | 'requestLog' | 'monitor' | 'dataDir' | 'secrets'>): Services {
  // These three keep the whole emulator, and use it only once it runs.
  let scheduler: Scheduler, deliveries: DeliveryEngine, stream: StreamHub;
  const services: Services = {
    ...given,
    stamps: new Timestamps(given.clock),
    hooks: { worldReplaced: [] },
    faults: new FaultSet(() => given.clock.now()),
    tokenDoor: new TokenDoor(),
    coverage: new Coverage(given.clock, given.config.coverage, given.dataDir && `${given.dataDir}/coverage.json`, (m) => given.log.warn(m)),
    get scheduler() { return scheduler; },
    get deliveries() { return deliveries; },
    get stream() { return stream; },
  };
  scheduler = new Scheduler(services, allTimedWork());
  deliveries = new DeliveryEngine(services);
  stream = new StreamHub(services);
  return services;
}
