import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Services } from '../services.js';
import { ApiError } from '../schema/errors.js';
import { describeZodError, refuseUnexpectedQuery, sendError, sendJson, successBody } from '../gateway/envelope.js';
import { controlRoutes } from './routes.js';
import { resourceControlRoutes } from '../registry.js';
import type { ControlRoute } from './route.js';

// The emulator's control API: what the spec puts on a dashboard or phone (payees, cards,
// top-ups, approvals, redelivery, the OTP inbox) plus the clock. It lives outside /v1, answers
// only loopback callers, and refuses any request that carries a merchant key, so a merchant
// integration can never reach it by accident.

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function controlRouter(services: Services): Router {
  const router = express.Router();
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return sendError(res, new ApiError('FORBIDDEN', 'The control API answers loopback callers only.'));
    if (/^Bearer +svc_/i.test(req.get('authorization') ?? '')) {
      return sendError(res, new ApiError('FORBIDDEN', 'The control API is not reachable with a merchant API key; call it without Authorization.'));
    }
    next();
  });
  const routes: ControlRoute[] = [...controlRoutes, ...resourceControlRoutes()];
  for (const route of routes) {
    router[route.method](route.path, (req: Request, res: Response) => {
      try {
        let body: unknown = req.body ?? {};
        if (route.body) {
          const parsed = route.body.safeParse(body);
          if (!parsed.success) throw new ApiError('VALIDATION_ERROR', describeZodError(parsed.error));
          body = parsed.data;
        }
        let query: unknown = req.query;
        if (!route.query) refuseUnexpectedQuery(req.query);
        else {
          const parsed = route.query.safeParse(query);
          if (!parsed.success) throw new ApiError('VALIDATION_ERROR', describeZodError(parsed.error, 'query'));
          query = parsed.data;
        }
        const data = route.handler(services, { body, params: req.params as Record<string, string>, query: query as Record<string, unknown> });
        sendJson(res, route.status ?? 200, successBody(data));
      } catch (err) {
        sendError(res, err);
      }
    });
  }
  return router;
}
