import { storedCollection, type RecordOf } from '../../store/collection.js';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, invalid, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { CreateWebhookEndpoint, WebhookEndpoint } from '../../../contract/resources/webhook-endpoints.js';
import { findOwn } from '../merchants/own.js';
import { hostIsAllowed, isLoopbackHost } from '../../../contract/network.js';

export const WEBHOOK_ENDPOINTS = storedCollection('webhook_endpoints', {
  live_by_scope: (e) => (e.deleted_at ? undefined : scopeKey(e.merchant_id, e.environment)),
  // Deleted endpoints' too: a secret stays one (the redaction looks secrets up here: request-log/held-secrets.ts).
  by_secret: (e) => e.secret,
});
/** A signing secret's length: 32 random bytes as base64url (the spec's "43 random base64url characters"). */
export const SECRET_LENGTH = 43;

export type EndpointRecord = RecordOf<'webhook_endpoints'>;

const scopeKey = (merchantId: string, environment: string) => `${merchantId}:${environment}`;

export const toPublicEndpoint = (e: EndpointRecord): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  events: e.events as WebhookEndpoint['events'],
  secret_hint: e.secret.slice(-4),
  environment: e.environment,
  created_at: e.created_at,
});

/**
 * Receivers must be https. Plain http is allowed to loopback hosts (localhost, 127.0.0.1,
 * [::1]) in both environments, and in the test environment also to the names the emulator was
 * told to accept (--allow-host: an app's container, `http://app:3000/webhooks`). Live endpoints
 * never get plain http to a network name.
 */
function checkUrl(ctx: MerchantContext, raw: string): void {
  if (!URL.canParse(raw)) throw invalid('url', 'must be an absolute URL');
  const url = new URL(raw);
  if (url.username || url.password) throw invalid('url', 'must not carry credentials');
  if (url.protocol === 'https:') return;
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'http:' && isLoopbackHost(host)) return;
  if (url.protocol === 'http:' && ctx.environment === 'test' && hostIsAllowed(host, ctx.services.config.allowedHosts)) return;
  const allowed = ctx.services.config.allowedHosts.length > 0 ? `, or in the test environment to an --allow-host name (${ctx.services.config.allowedHosts.join(', ')})` : '';
  throw invalid('url', `must be https:// (plain http:// only to localhost, 127.0.0.1 or [::1]${allowed})`);
}

export function createEndpoint(ctx: MerchantContext, input: z.infer<typeof CreateWebhookEndpoint>, tx: Transaction) {
  checkUrl(ctx, input.url);
  const record = tx.put(WEBHOOK_ENDPOINTS, {
    id: newId('we'),
    merchant_id: ctx.merchant.id,
    environment: ctx.environment,
    url: input.url,
    events: input.events,
    secret: randomBytes(32).toString('base64url'), // 32 bytes -> exactly SECRET_LENGTH base64url characters
    created_at: ctx.services.stamps.next(),
  });
  return { endpoint: toPublicEndpoint(record), secret: record.secret };
}

export function listEndpoints(ctx: MerchantContext) {
  const records = ctx.services.store.byIndex(WEBHOOK_ENDPOINTS, 'live_by_scope', scopeKey(ctx.merchant.id, ctx.environment));
  return { endpoints: records.map(toPublicEndpoint) };
}

/**
 * Revokes the endpoint: it gets no new deliveries, and its pending ones are cancelled by the
 * engine. Deleting it again answers the same 200, as revoking a revoked mandate does: a
 * retried DELETE (lost answer, new key) must not look like a failure.
 */
export function deleteEndpoint(ctx: MerchantContext, id: string, tx: Transaction) {
  const e = findOwn<EndpointRecord>(ctx, WEBHOOK_ENDPOINTS, id);
  if (!e) throw notFound('webhook endpoint');
  if (!e.deleted_at) tx.put(WEBHOOK_ENDPOINTS, { ...e, deleted_at: ctx.services.stamps.next() });
  return { id, deleted: true as const };
}

/**
 * The signing secret, for the control API only (`svc webhooks check --endpoint` signs its test
 * deliveries with it): the merchant API returns it once, at creation. A deleted endpoint's is
 * not handed out, as nothing is delivered to it any more.
 */
export function endpointSecret(services: Pick<Services, 'store' | 'config'>, id: string) {
  const e = services.store.get(WEBHOOK_ENDPOINTS, id);
  if (!e || e.deleted_at) throw new ApiError('NOT_FOUND', `No webhook endpoint ${id}${e ? ' (it was deleted)' : ''}.`);
  // With what the check needs besides: the types it subscribes to (nothing else is sent to it)
  // and the names this emulator takes plain http:// to (no transport warning for them).
  return { id: e.id, secret: e.secret, events: e.events, allowed_hosts: services.config.allowedHosts };
}

/** Live endpoints of a merchant and environment that subscribe to `type`. */
export function subscribers(services: Pick<Services, 'store'>, merchantId: string, environment: string, type: string): EndpointRecord[] {
  return services.store
    .byIndex(WEBHOOK_ENDPOINTS, 'live_by_scope', scopeKey(merchantId, environment))
    .filter((e) => e.events.includes(type));
}
