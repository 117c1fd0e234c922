import { describeZodError } from '../../contract/zod-error.js';
import express, { type Request, type Response, type Router } from 'express';
import type { Services } from '../services.js';
import { ApiError } from '../errors.js';
import { refuseUnexpectedQuery, sendError, sendJson, successBody } from '../gateway/envelope.js';
import { withoutEmptyParams } from '../gateway/query.js';
import { controlRoutes } from './routes.js';
import { worldControlRoutes } from './world-routes.js';
import { faultControlRoutes } from '../faults/control.js';
import { resourceControlRoutes } from '../registry.js';
import type { ControlRoute } from './route.js';
import { localOnly } from '../http/local-guard.js';
import { DOORS } from '../http/doors.js';

// The emulator's control API: what the spec puts on a dashboard or phone (payees, cards,
// top-ups, approvals, redelivery, the OTP inbox) plus the clock. It lives outside /v1, answers
// loopback callers (and other hosts presenting the control token) under a Host that names the
// emulator and with no foreign Origin, and refuses any request that carries an Authorization
// header (http/local-guard.ts), so neither a merchant integration nor a web page can reach it.

/** Every control route, in mount order: what the router serves and GET /_emulator/openapi.yaml documents. */
export const allControlRoutes = (): ControlRoute[] => [...controlRoutes, ...worldControlRoutes, ...faultControlRoutes, ...resourceControlRoutes()];

export function controlRouter(services: Services): Router {
  const router = express.Router();
  router.use(localOnly(services, DOORS.control)); // also mounted before body parsing (app.ts)
  for (const route of allControlRoutes()) {
    router[route.method](route.path, async (req: Request, res: Response) => {
      try {
        let body: unknown = req.body ?? {};
        if (route.body) {
          const parsed = route.body.safeParse(body);
          if (!parsed.success) throw new ApiError('VALIDATION_ERROR', (route.bodyProblem ?? describeZodError)(parsed.error));
          body = parsed.data;
        }
        let query: unknown = req.query;
        if (!route.query) refuseUnexpectedQuery(req.query);
        else {
          const parsed = route.query.safeParse(withoutEmptyParams(req.query, route.query));
          if (!parsed.success) throw new ApiError('VALIDATION_ERROR', describeZodError(parsed.error, 'query'));
          query = parsed.data;
        }
        const input = { body, params: req.params, query };
        const data = route.run ? await route.run(services, input) : services.store.transaction((tx) => route.handler!(services, input, tx));
        sendJson(res, route.status ?? 200, successBody(data));
      } catch (err) {
        sendError(res, err);
      }
    });
  }
  return router;
}
