import { describeZodError } from '../../contract/zod-error.js';
import { KEY_PATTERN } from '../../contract/keys.js';
import { CHECKOUT_URL_HEADER } from '../../contract/network.js';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { MerchantContext, Services } from '../services.js';
import { ApiError } from '../errors.js';
import { findKey, MERCHANTS, type KeyRecord, type MerchantRecord } from '../resources/merchants/records.js';
import { refuseUnexpectedQuery, sendError, sendJson, successBody } from './envelope.js';
import { checkBodyKey, checkKey, fingerprint, IdempotencyLedger } from './idempotency.js';
import { withoutEmptyParams } from './query.js';
import type { RateLimiter } from './rate-limit.js';
import type { RouteDef } from './route.js';
import { dispatcher, RouteTable } from './dispatch.js';
import { watchOf } from '../request-log/record.js';
import type { Op } from '../store/memory-store.js';
import { applyAfter, applyBefore, takeApiFault, type Routed } from '../faults/api.js';

// The gateway: every merchant route goes through `handle`, in this order —
//   auth (401) → scope / business (403) → [injected fault, before] → rate limit (429)
//   → idempotency key (422/409/replay) → validation (422) → handler in a store transaction
//   → [injected fault, after commit] → envelope. (The bracketed steps: handleWithFaults.)
// The trace id is set earlier, by app-level middleware, so even unknown routes carry it.

export interface Gateway {
  services: Services;
  limiter: RateLimiter;
  ledger: IdempotencyLedger;
}

/**
 * Every merchant route as one middleware (dispatch.ts: express's walk over one layer per route
 * cost more than the lookup), which app.ts calls from its front layer once a /v1 request's body
 * is read and its turn has come (no layer of its own either).
 */
export function gatewayRoutes(routes: RouteDef[], gateway: Gateway): RequestHandler {
  const table = new RouteTable(routes);
  const { coverage } = gateway.services;
  const tallies = coverage.on ? new Map(routes.map((r) => [r, coverage.tallyOf(r.name)])) : null;
  // With no fault set (the usual case) a request takes the plain path: fault handling adds
  // nothing to it, not even code in `handle` (measured: a bigger `handle` cost POSTs ~6%).
  return dispatcher(table, (route, req, res) => {
    res.setHeader(CHECKOUT_URL_HEADER, gateway.services.config.checkoutUrl);
    if (tallies !== null) res.locals.coverage = tallies.get(route); // told the answer by sendJson (coverage.ts)
    void (gateway.services.faults.empty ? handle(route, gateway, req, res) : handleWithFaults({ table, route }, gateway, req, res));
  });
}

/** The gateway's key check, also used by the emulator's live stream. */
export function authenticate(services: Services, header: string | undefined): { key: KeyRecord; merchant: MerchantRecord } {
  if (!header) throw new ApiError('UNAUTHORIZED', 'Missing Authorization header; send "Authorization: Bearer <API key>".');
  // The scheme name is case-insensitive and may be followed by several spaces (RFC 7235, RFC 6750).
  const m = /^Bearer +(\S+)$/i.exec(header);
  if (!m) throw new ApiError('UNAUTHORIZED', 'Malformed Authorization header; expected "Bearer <API key>".');
  if (!KEY_PATTERN.test(m[1])) throw new ApiError('UNAUTHORIZED', 'Malformed API key; keys start with svc_test_ or svc_live_.');
  const key = findKey(services, m[1]);
  if (!key) throw new ApiError('UNAUTHORIZED', 'Unknown API key.');
  if (key.revoked) throw new ApiError('UNAUTHORIZED', 'This API key has been revoked.');
  const merchant = services.store.get(MERCHANTS, key.merchant_id);
  if (!merchant) throw new ApiError('UNAUTHORIZED', 'Unknown API key.');
  return { key, merchant };
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, root: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError('VALIDATION_ERROR', describeZodError(result.error, root));
  return result.data;
}

/**
 * A request while faults are set (faults/api.ts): a before-commit fault acts once the caller is
 * known and allowed (a bad key or scope still gets its 401/403), an after-commit fault acts on
 * the answer `handle` produced once its transaction committed.
 */
async function handleWithFaults(routed: Routed, gateway: Gateway, req: Request, res: Response): Promise<void> {
  const { services } = gateway;
  // A fault may cut the answer: the request log's entry is then made when the response closes.
  watchOf(res)?.closeWithFaults();
  const { route } = routed;
  let key: KeyRecord | undefined;
  try {
    const caller = authenticate(services, req.headers.authorization);
    if (caller.key.scopes.includes(route.scope) && (!route.business || caller.merchant.business)) key = caller.key;
  } catch {
    // handle() answers the 401
  }
  if (key) {
    try {
      const before = takeApiFault(services, req, key, false, routed);
      if (before && (await applyBefore(services, before, req, res)) === 'done') return;
    } catch (err) {
      sendError(res, err);
      return;
    }
  }
  await handle(route, gateway, req, res, async (out) => {
    const after = key && takeApiFault(services, req, key, true, routed);
    if (after) await applyAfter(services, after, req, res, out);
    else sendJson(res, out.status, out.body);
  });
}

async function handle(route: RouteDef, gateway: Gateway, req: Request, res: Response, respond?: (out: { status: number; body: string }) => Promise<void>): Promise<void> {
  const { services, limiter, ledger } = gateway;
  const traceId = res.locals.traceId;
  // Keys this request holds in flight: the header's and, on redemption routes, the body field's.
  const held: Array<{ merchantId: string; key: string; print: string }> = [];
  try {
    const { key, merchant } = authenticate(services, req.headers.authorization);
    res.locals.keyRecord = key;
    if (!key.scopes.includes(route.scope)) throw new ApiError('FORBIDDEN', `This API key lacks the ${route.scope} scope.`);
    if (route.business && !merchant.business) throw new ApiError('BUSINESS_ACCOUNT_REQUIRED', 'This action needs a business account.');
    limiter.take(merchant.id);

    const body = req.body === undefined ? {} : req.body;
    const ctx: MerchantContext = { services, merchant, environment: key.environment, key, traceId };
    if (route.idempotency) {
      const { header, required } = route.idempotency;
      const idemKey = checkKey(header, req.get(header), required);
      // The body key gets its own ledger record (prefixed with the field name), so the same
      // string used as header and body key on one request does not collide with itself.
      const bodyField = route.idempotency.bodyField;
      const candidates: string[] = [];
      if (idemKey !== undefined) {
        ctx.idempotencyKey = idemKey;
        candidates.push(idemKey);
      }
      if (bodyField) candidates.push(`${bodyField}=${checkBodyKey(bodyField, body)}`);
      // A key the route keeps itself (a charge's cycle key) is checked the same way, but held by the route.
      if (route.idempotency.routeKeyField) checkBodyKey(route.idempotency.routeKeyField, body);
      // Fingerprint only when a key is held: a route whose key is optional pays nothing without one.
      const print = candidates.length > 0 ? fingerprint(route.method, req.path, key.environment, body) : '';
      for (const k of candidates) {
        const replay = ledger.begin(merchant.id, k, print);
        if (replay) {
          res.set('Idempotent-Replayed', 'true');
          return sendJson(res, replay.status, replay.body);
        }
        held.push({ merchantId: merchant.id, key: k, print });
      }
    }
    // `--latency` makes the emulator slow on purpose, so clients can exercise their timeouts
    // and a duplicate sent meanwhile sees 409 IDEMPOTENCY_IN_FLIGHT, as against a real host.
    // The wait is on the emulator clock, like every other: a manual clock holds the request
    // until it is advanced that far.
    if (services.config.latencyMs > 0) await services.scheduler.sleep(services.config.latencyMs);

    const status = route.status ?? 200;
    let out: { status: number; body: string; writes: readonly Op[] };
    try {
      out = services.store.transaction((tx) => {
        const input = {
          params: parse(route.params, req.params, 'path'),
          query: route.query ? parse(route.query, withoutEmptyParams(req.query, route.query), 'query') : refuseUnexpectedQuery(req.query),
          body: parse(route.body, body, 'body'),
        };
        const data = route.handler(ctx, input, tx);
        const result = { status, body: successBody(data), writes: tx.writes() };
        for (const h of held) ledger.save(tx, h.merchantId, h.key, h.print, result.status, result.body);
        return result;
      });
      // What the transaction wrote: the request log's `resources` (request-log/record.ts).
      const watch = watchOf(res);
      if (watch) watch.writes = out.writes;
    } catch (err) {
      // A 4xx answer to a request with a key is the original response too (rule 6) and is
      // replayed; a 5xx is not stored, so the client's retry can still succeed.
      if (held.length > 0 && err instanceof ApiError && err.status < 500) {
        const body = JSON.stringify({ success: false, error: { code: err.code, message: err.message } });
        services.store.transaction((tx) => {
          for (const h of held) ledger.save(tx, h.merchantId, h.key, h.print, err.status, body);
        });
      }
      throw err;
    }
    if (respond) await respond(out);
    else sendJson(res, out.status, out.body);
  } catch (err) {
    sendError(res, err);
  } finally {
    for (const h of held) ledger.end(h.merchantId, h.key);
  }
}

