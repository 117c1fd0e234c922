import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import type { Services } from '../services.js';
import { html } from '../pages/html.js';
import { ApiError, notFound } from '../errors.js';
import { endSession, localOnly } from '../http/local-guard.js';
import { DOORS } from '../http/doors.js';
import { dashboardStream } from '../webhooks/module.js';
import { CLIENT_SCRIPT } from './client.js';
import { dashboardPage, sendDashboard } from './layout.js';
import { mountEvents } from './events.js';
import { mountEndpoints } from './endpoints.js';
import { mountRecords } from './records.js';
import { mountWallets } from './wallets.js';
import { mountApprovals } from './approvals.js';
import { mountTime } from './time.js';
import { mountFaults } from './faults.js';
import { mountLogs } from './logs.js';
import { coveragePage } from './coverage.js';

// The local dashboard at {base_url}/dashboard: server-rendered pages over the same functions
// the control routes call, and one script that sends every action to the control API. It sits
// behind the control API's own door (http/local-guard.ts, with the same options as
// control/router.ts), so it answers exactly who the control API answers.

export function dashboardRouter(services: Services): Router {
  const router = express.Router();
  router.use(localOnly(services, DOORS.dashboard)); // also mounted before body parsing (app.ts)
  router.get('/app.js', (_req: Request, res: Response) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(CLIENT_SCRIPT);
  });
  router.get('/stream', dashboardStream(services));
  router.post('/logout', (req: Request, res: Response) => {
    endSession(services, req, res);
    sendDashboard(res, 200, dashboardPage('Logged out', 'events', html`<p role="status">This browser's dashboard session has ended. From another host, open the dashboard link with the control token ({public_url}/dashboard?token=…) to log in again.</p>`));
  });
  mountEvents(router, services);
  mountEndpoints(router, services);
  mountRecords(router, services);
  mountWallets(router, services);
  mountApprovals(router, services);
  mountTime(router, services);
  mountFaults(router, services);
  mountLogs(router, services);
  router.get('/coverage', (_req: Request, res: Response) => sendDashboard(res, 200, coveragePage(services)));
  router.use((_req: Request, res: Response) => {
    sendDashboard(res, 404, dashboardPage('Not found', 'events', html`<p>There is no dashboard page here. <a href="/dashboard">Back to events</a></p>`));
  });
  router.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    // Express could not percent-decode a path parameter (/records/payments/%ZZ): no record
    // has such an id, so it is the same 404 as any unknown one.
    if (err.status === 400 && /^Failed to decode param/.test(err.message)) err = notFound('record');
    if (err instanceof ApiError && err.status < 500) {
      return sendDashboard(res, err.status, dashboardPage(err.status === 404 ? 'Not found' : 'Not shown', 'events', html`<p role="alert">${err.message}</p>`));
    }
    services.log.warn(`dashboard page failed: ${err.stack ?? err.message}`);
    sendDashboard(res, 500, dashboardPage('Something went wrong', 'events', html`<p role="alert">The emulator hit an internal error; see its console.</p>`));
  });
  return router;
}

/** The registry's `http` hook: the dashboard is {base_url}/dashboard. */
export function mountDashboard(app: Express, services: Services): void {
  app.use('/dashboard', dashboardRouter(services));
}
