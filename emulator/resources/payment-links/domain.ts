import { storedCollection, type RecordOf } from '../../store/collection.js';
import type { MerchantContext, Services } from '../../services.js';
import type { Transaction } from '../../store/store.js';
import { ApiError, invalid, notFound } from '../../errors.js';
import { newId, newLinkCode, normalizeIso } from '../../ids.js';
import { MERCHANTS } from '../merchants/records.js';
import type { CreatePaymentLink, PaymentLink } from '../../../contract/resources/payment-links.js';
import { findOwn } from '../merchants/own.js';
import { hostIsAllowed, isLoopbackHost } from '../../../contract/network.js';

export const PAYMENT_LINKS = storedCollection('payment_links', { by_code: (l) => l.link_code });

export type LinkRecord = RecordOf<'payment_links'>;

export function linkStatus(link: LinkRecord, now: number): PaymentLink['status'] {
  if (link.closed) return 'completed';
  if (link.expires_at && Date.parse(link.expires_at) <= now) return 'expired';
  return 'pending';
}

export function toPublicLink(link: LinkRecord, now: number): PaymentLink {
  const { merchant_id: _m, closed: _c, ...rest } = link;
  return { ...rest, status: linkStatus(link, now) };
}

/**
 * The spec's redirect rules: https:// without credentials; http://localhost only with a test
 * key. "localhost" is read as a test host: a loopback name (localhost, 127.0.0.1, [::1], exactly)
 * or a name the emulator was told to accept (--allow-host: an app's container). Nothing else:
 * http://localhost.evil.example is another site.
 */
function checkRedirectUrl(raw: string, ctx: MerchantContext): void {
  if (!URL.canParse(raw)) throw invalid('redirect_url', 'must be an absolute URL');
  const url = new URL(raw);
  if (url.username || url.password) throw invalid('redirect_url', 'must not carry credentials');
  if (url.protocol === 'https:') return;
  const allowed = ctx.services.config.allowedHosts;
  const testHost = url.protocol === 'http:' && (isLoopbackHost(url.hostname) || hostIsAllowed(url.hostname, allowed));
  if (testHost && ctx.environment === 'test') return;
  if (testHost) throw invalid('redirect_url', 'plain http:// is accepted only with a test key');
  const names = ['localhost, 127.0.0.1 or [::1]', ...(allowed.length > 0 ? [`an --allow-host name (${allowed.join(', ')})`] : [])].join(', or ');
  throw invalid('redirect_url', `must be https:// (plain http:// only to ${names}, with a test key)`);
}

export function createLink(ctx: MerchantContext, input: CreatePaymentLink, tx: Transaction): PaymentLink {
  const now = ctx.services.clock.now();
  if (input.redirect_url !== undefined) checkRedirectUrl(input.redirect_url, ctx);
  if (input.expires_at !== undefined && Date.parse(input.expires_at) <= now) throw invalid('expires_at', 'must be in the future');
  if (input.sub_merchant_id !== undefined) {
    const sub = ctx.services.store.get(MERCHANTS, input.sub_merchant_id);
    // Sub-merchants belong to one environment (sub-merchants/domain.ts), like every resource.
    if (!sub || sub.parent_id !== ctx.merchant.id || (sub.environment !== undefined && sub.environment !== ctx.environment)) {
      throw invalid('sub_merchant_id', 'is not a sub-merchant of this merchant');
    }
  }
  let linkCode = newLinkCode();
  while (ctx.services.store.byIndex(PAYMENT_LINKS, 'by_code', linkCode).length > 0) linkCode = newLinkCode();
  const link = tx.put(PAYMENT_LINKS, {
    id: newId('pl'),
    link_code: linkCode,
    merchant_id: ctx.merchant.id,
    environment: ctx.environment,
    title: input.title,
    description: input.description ?? null,
    amount: input.amount ?? null,
    currency: input.currency ?? 'USD',
    accepted_methods: input.accepted_methods ?? ['card', 'momo', 'wallet'],
    expires_at: input.expires_at ? normalizeIso(input.expires_at) : null,
    redirect_url: input.redirect_url ?? null,
    metadata: input.metadata ?? null,
    sub_merchant_id: input.sub_merchant_id ?? null,
    closed: false,
    total_collected: 0,
    payment_count: 0,
    created_at: ctx.services.stamps.next(),
  });
  return toPublicLink(link, now);
}

/** A link of the caller's merchant and environment; anything else is indistinguishable 404. */
export function getOwnLink(ctx: MerchantContext, id: string): LinkRecord {
  const link = findOwn<LinkRecord>(ctx, PAYMENT_LINKS, id);
  if (!link) throw notFound('payment link');
  return link;
}

export function findLinkByCode(services: Pick<Services, 'store'>, code: string): LinkRecord | undefined {
  return services.store.byIndex(PAYMENT_LINKS, 'by_code', code)[0];
}

export function getOwnLinkByCode(ctx: MerchantContext, code: string): LinkRecord {
  const link = findLinkByCode(ctx.services, code);
  if (!link) throw notFound('payment link');
  return getOwnLink(ctx, link.id);
}

/** Refuses a payment on a link that cannot take one (checkout and simulate both ask). */
export function assertPayable(link: LinkRecord, method: string, amount: number | undefined, now: number): number {
  const status = linkStatus(link, now);
  if (status === 'expired') throw new ApiError('LINK_EXPIRED', `Payment link ${link.link_code} expired at ${link.expires_at}.`);
  if (status === 'completed') throw new ApiError('LINK_CLOSED', `Payment link ${link.link_code} has already been paid.`);
  if (!link.accepted_methods.includes(method as LinkRecord['accepted_methods'][number])) {
    throw invalid('method', `this link accepts ${link.accepted_methods.join(', ')}`);
  }
  if (link.amount === null) {
    if (amount === undefined) throw invalid('amount', 'is required for a pay-any-amount link');
    return amount;
  }
  if (amount !== undefined && amount !== link.amount) throw invalid('amount', `this link has a fixed amount of ${link.amount}; omit amount`);
  return link.amount;
}
