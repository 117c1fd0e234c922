import type { Express, Request, Response } from 'express';
import type { Services } from '../services.js';
import type { ResourceModule } from '../registry.js';
import { DELIVERIES } from './records.js';
import { DeliveryEngine, webhookAttempts } from './engine.js';
import { StreamHub, STREAM_PATH } from './stream.js';
import { webhookControlRoutes } from './control.js';
import { localOnly } from '../http/local-guard.js';
import { DOORS } from '../http/doors.js';

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

/**
 * Resolves once no webhook attempt is due, queued, held by a fault or in flight and every
 * finished one is recorded (nothing due on the scheduler is left to start either). Attempts due
 * at a later time on the clock do not count: advance the clock, then wait again.
 */
export async function deliveriesIdle(services: Services): Promise<void> {
  const { engine } = runtime(services);
  // The two signals alternate (a due item starts an attempt; a recorded one may make another
  // due): done when both hold at once.
  for (;;) {
    await services.scheduler.idle();
    await engine.idle();
    if (engine.isIdle() && services.scheduler.isIdle()) return;
  }
}

/** The dashboard's live feed (every scope), served behind the control API's door. */
export const dashboardStream = (services: Services) => (req: Request, res: Response) => runtime(services).hub.handleAll(req, res);

export const webhooksModule: ResourceModule = {
  name: 'webhooks',
  routes: [],
  control: webhookControlRoutes,
  collections: [DELIVERIES],
  timed: [webhookAttempts((services) => runtime(services).engine)],
  subscribe(services) {
    runtimes.set(services, { engine: new DeliveryEngine(services), hub: new StreamHub(services) });
  },
  http(app: Express, services: Services) {
    const { hub } = runtime(services);
    // Host and Origin checked; the merchant key it authenticates with is the stream's own door.
    app.get(STREAM_PATH, localOnly(services, DOORS.stream), (req: Request, res: Response) => hub.handle(req, res));
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
