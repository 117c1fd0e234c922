import type { Express, Request, Response } from 'express';
import type { Services } from '../services.js';
import type { ResourceModule } from '../registry.js';
import { DELIVERIES } from './records.js';
import { webhookAttempts } from './engine.js';
import { STREAM_PATH } from './stream.js';
import { webhookControlRoutes } from './control.js';
import { localOnly } from '../http/local-guard.js';
import { DOORS } from '../http/doors.js';

// The webhooks of one emulator: its delivery engine (services.deliveries) and its live stream
// (services.stream), both made with the emulator's Services. The stream route is mounted when
// the app is built; both start once the server listens and stop before the store closes.

/**
 * Resolves once no webhook attempt is due, queued, held by a fault or in flight and every
 * finished one is recorded (nothing due on the scheduler is left to start either). Attempts due
 * at a later time on the clock do not count: advance the clock, then wait again.
 */
export async function deliveriesIdle(services: Services): Promise<void> {
  const engine = services.deliveries;
  // The two signals alternate (a due item starts an attempt; a recorded one may make another
  // due): done when both hold at once.
  for (;;) {
    await services.scheduler.idle();
    await engine.idle();
    if (engine.isIdle() && services.scheduler.isIdle()) return;
  }
}

/** The dashboard's live feed (every scope), served behind the control API's door. */
export const dashboardStream = (services: Services) => (req: Request, res: Response) => services.stream.handleAll(req, res);

export const webhooksModule: ResourceModule = {
  name: 'webhooks',
  routes: [],
  control: webhookControlRoutes,
  collections: [DELIVERIES],
  timed: [webhookAttempts],
  http(app: Express, services: Services) {
    // Host and Origin checked; the merchant key it authenticates with is the stream's own door.
    app.get(STREAM_PATH, localOnly(services, DOORS.stream), (req: Request, res: Response) => services.stream.handle(req, res));
  },
  start(services) {
    services.stream.start();
    services.deliveries.start();
  },
  async stop(services) {
    // Streams first (an open stream would keep the HTTP server from closing), then the
    // engine, which records what finished and aborts the rest while the store is still open.
    services.stream.stop();
    await services.deliveries.stop();
  },
};
