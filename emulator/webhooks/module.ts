import type { Express, Request, Response } from 'express';
import type { Services } from '../services.js';
import type { ResourceModule } from '../registry.js';
import { DELIVERIES } from './records.js';
import { DeliveryEngine } from './engine.js';
import { StreamHub, STREAM_PATH } from './stream.js';
import { webhookControlRoutes } from './control.js';
import { localOnly } from '../http/local-guard.js';

// The webhooks runtime of one emulator: the delivery engine and the live stream. Created at
// setup (before the app is built, so the stream route can be mounted), started once the
// server listens, stopped before the store closes.

interface Runtime {
  engine: DeliveryEngine;
  hub: StreamHub;
}

const runtimes = new WeakMap<Services, Runtime>();

function runtime(services: Services): Runtime {
  const r = runtimes.get(services);
  if (!r) throw new Error('webhooks: setup() did not run for this emulator');
  return r;
}

/** Resolves once no webhook attempt is due or in flight and every finished one is recorded. */
export const deliveriesIdle = (services: Services): Promise<void> => runtime(services).engine.idle();

/** The dashboard's live feed (every scope), served behind the control API's door. */
export const dashboardStream = (services: Services) => (req: Request, res: Response) => runtime(services).hub.handleAll(req, res);

export const webhooksModule: ResourceModule = {
  name: 'webhooks',
  routes: [],
  control: webhookControlRoutes,
  collections: [DELIVERIES],
  subscribe(services) {
    runtimes.set(services, { engine: new DeliveryEngine(services), hub: new StreamHub(services) });
  },
  http(app: Express, services: Services) {
    const { hub } = runtime(services);
    // Host and Origin checked; the merchant key it authenticates with is the stream's own door.
    app.get(STREAM_PATH, localOnly(services, { allowAuthorization: true, controlToken: true }), (req: Request, res: Response) => hub.handle(req, res));
  },
  start(services) {
    const { engine, hub } = runtime(services);
    hub.start();
    engine.start();
  },
  async stop(services) {
    const { engine, hub } = runtime(services);
    // Streams first (an open stream would keep the HTTP server from closing), then the
    // engine, which records what finished and aborts the rest while the store is still open.
    hub.stop();
    await engine.stop();
  },
};
