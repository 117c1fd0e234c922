import { maskSecret } from '../contract/keys.js';
import { type RateLimitConfig } from '../contract/formats.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Services } from './services.js';
import { ApiError } from './errors.js';
import { errorBody, sendError, sendJson } from './gateway/envelope.js';
import { gatewayRoutes, type Gateway } from './gateway/mount.js';
import { pathnameOf } from './gateway/dispatch.js';
import { IdempotencyLedger } from './gateway/idempotency.js';
import { RateLimiter } from './gateway/rate-limit.js';
import { allRoutes, resources } from './registry.js';
import { controlRouter } from './control/router.js';
import { randomHex } from './ids.js';
import { isFieldValue } from '../contract/header-safe.js';
import { hasHighBytes, keepHeaderBytes } from './http/header-bytes.js';
import { openApiHandlers } from './openapi/serve.js';
import { localOnly } from './http/local-guard.js';
import { DOORS, mountDoors } from './http/doors.js';
import { answeredNoHost } from './http/client-error.js';
import { refuseDeepJson } from './http/json-depth.js';
import { describeJsonError } from './http/json-syntax.js';
import { oneHandlerPerTurn } from './performance/request-turns.js';
import { watchOf, watchRequest } from './request-log/record.js';
import { clean, redactPath } from '../contract/redact.js';

// The HTTP layer: it only translates. Trace ids, the doors of the non-/v1 surfaces, body
// parsing, the merchant routes (through the gateway), the control API, and the envelope for
// everything that falls through.

interface AppOptions {
  rateLimit: RateLimitConfig | null;
  /**
   * Where one line per request goes (the console), already redacted part by part; none: no lines.
   * Not through services.log, whose last pass over a whole line would read the path's digits on
   * into the status and the time (`…/+231770000201 404 1.2ms`) and mask them as a card.
   */
  requestLine?: (line: string) => void;
}


/**
 * A request under /v1, read from the raw target as the route table reads it (pathnameOf):
 * req.path parses it (a parsed-URL object, and property reads that Express's prototype swap
 * per request makes slow), so only a target that is not a plain path goes through it.
 */
function isV1(req: Request): boolean {
  const path = pathnameOf(req.url) ?? req.path;
  return path.startsWith('/v1') && (path.length === 3 || path.charCodeAt(3) === 47);
}

export function createApp(services: Services, options: AppOptions) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');

  // The doors of every surface that is not /v1 (http/doors.ts), before any body is read: a
  // foreign Host or Origin is a 403 whatever the body holds. First the OpenAPI documents (no key
  // needed: they describe, they do not act), which sit under /_emulator but not behind the
  // control API's door; then the door of each other surface, by its path prefix.
  // They sit in one router that a /v1 request skips in one step: none of their paths is under /v1.
  const surfaces = express.Router();
  const openApi = openApiHandlers(services);
  const documents = localOnly(services, DOORS.documents);
  surfaces.get('/openapi.yaml', documents, openApi.yaml);
  surfaces.get('/openapi.json', documents, openApi.json);
  surfaces.get('/_emulator/openapi.yaml', documents, openApi.controlYaml);
  surfaces.get('/_emulator/openapi.json', documents, openApi.controlJson);
  surfaces.get('/redocly.yaml', documents, openApi.lintConfig);
  mountDoors(surfaces, services);

  // Bodies are JSON whatever the Content-Type says (curl -d sends form encoding by default),
  // except on the hosted pages, whose forms post urlencoded bodies (pages/router.ts reads them).
  // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3):
  // the parser would find that out too (type-is's hasBody), after its own checks.
  const json = express.json({
    type: () => true,
    limit: '1mb',
    strict: false,
    verify: (req: Request, res: Response, buf: Buffer, encoding: string) => {
      refuseDeepJson(req, res, buf, encoding);
      // The request log keeps the body as it was sent: "what did my code send" (record.ts).
      watchOf(res)?.received(buf, encoding);
    },
  });
  const turn = oneHandlerPerTurn();
  const gateway: Gateway = { services, limiter: new RateLimiter(options.rateLimit), ledger: new IdempotencyLedger(services) };
  services.hooks.worldReplaced.push(() => gateway.limiter.clear());
  const merchantApi = gatewayRoutes(allRoutes(), gateway);
  /** The body read and parsed (a parse error goes to `next`), then the request waits for a turn of the event loop of its own, then `then`. */
  const bodyThenTurn = (req: Request, res: Response, next: NextFunction, then: () => void) => {
    const headers = req.headers;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
      req.body = undefined;
      return turn(req, res, then);
    }
    if (/^\/checkout(\/|$)/.test(req.path)) return turn(req, res, then);
    json(req, res, (err?: unknown) => (err ? next(err) : turn(req, res, then)));
  };

  // Everything a request goes through before its route, in ONE layer, and for /v1 its route
  // too: each layer express walks costs every request a path match, a params object and
  // closures. In order: the trace id and the request log's watch, the Host check, the doors of
  // the other surfaces (a /v1 request skips them), the body, the request's own turn of the
  // loop, and the merchant route it names (a request that names none goes on to the layers below).
  app.use((req: Request, res: Response, next: NextFunction) => {
    services.monitor.noteActivity(); // wakes the event-loop probes if they slept (performance/loop-monitor.ts)
    // req.headers once (what req.get reads): each read of it goes through a getter.
    const headers = req.headers;
    const sent = headers['x-trace-id'] as string | undefined; // node joins repeated ones into one string
    // Echoed as it arrived, whatever its length: node's parser already kept it to what a header
    // may hold (and to 16 KB of headers in all). Only an empty value is replaced.
    const traceId = sent !== undefined && isFieldValue(sent) ? sent : `trc_${randomHex(12)}`;
    res.locals.traceId = traceId;
    res.setHeader('X-Trace-ID', traceId); // not res.set: its content-type handling is for other headers
    if (hasHighBytes(traceId)) keepHeaderBytes(res); // the same bytes back, not their UTF-8
    // Every /v1 request goes into the request log (request-log/record.ts), unless --request-log 0.
    if (services.config.requestLog > 0 && isV1(req)) watchRequest(services, req, res);
    const { requestLine } = options;
    if (requestLine) {
      const start = performance.now();
      res.on('finish', () => {
        const key = res.locals.keyRecord;
        // Each part as the request log shows it (path and query redacted: a dashboard login link's token included; the trace id cleaned).
        requestLine(
          `${req.method} ${redactPath(req.originalUrl, services.secrets)} ${res.statusCode} ${(performance.now() - start).toFixed(1)}ms` +
            `${key ? ` key=${maskSecret(key.key)}` : ''} trace=${clean(traceId, services.secrets)}`,
        );
      });
    }
    if (answeredNoHost(req, res)) return;
    // The merchant routes match paths case-insensitively (dispatch.ts): /V1/… is theirs too.
    // Called from the turn's queue, outside express: what it throws goes to the error handler, as from a layer.
    const route = () => {
      try {
        merchantApi(req, res, next);
      } catch (err) {
        next(err);
      }
    };
    if (req.url.startsWith('/v1/')) return bodyThenTurn(req, res, next, route);
    surfaces(req, res, (err?: unknown) => (err ? next(err) : bodyThenTurn(req, res, next, route)));
  });

  app.use('/_emulator', controlRouter(services));
  for (const r of resources) r.http?.(app, services); // the live stream (webhooks/stream.ts)

  app.use((req: Request, res: Response) => {
    sendJson(res, 404, errorBody('NOT_FOUND', `No route ${req.method} ${req.path}.`));
  });

  // Body-parser failures (bad JSON, too large) and anything else thrown outside the gateway.
  app.use((err: Error & { type?: string; status?: number; body?: unknown }, req: Request, res: Response, _next: NextFunction) => {
    // Where it broke, never what it held (http/json-syntax.ts).
    if (err.type === 'entity.parse.failed') return sendError(res, new ApiError('VALIDATION_ERROR', describeJsonError(typeof err.body === 'string' ? err.body : '', err.message)));
    if (err.type === 'entity.too.deep') return sendError(res, new ApiError('VALIDATION_ERROR', err.message));
    if (err.type === 'entity.too.large') return sendError(res, new ApiError('VALIDATION_ERROR', 'body: larger than the 1 MB limit'));
    // The router could not percent-decode a path parameter: no resource has such an id.
    if (err.status === 400 && /^Failed to decode param/.test(err.message)) {
      return sendError(res, new ApiError('NOT_FOUND', `Nothing at ${req.method} ${req.path}: the path holds malformed percent-encoding.`));
    }
    if (err.status && err.status >= 400 && err.status < 500) return sendError(res, new ApiError('VALIDATION_ERROR', `body: ${err.message}`));
    return sendError(res, err);
  });

  return app;
}
