import type { Output } from '../../output.js';
import { money } from '../../output.js';
import type { SvcApi } from '../../../client/api.js';

type Link = Awaited<ReturnType<SvcApi['getLink']>>['data'];

/** A link as a key-value block (shared by create and get). */
export function linkLines(out: Output, link: Link, checkoutUrl?: string): string[] {
  return out.kv([
    ['id', link.id],
    ['link code', link.link_code],
    ['checkout url', checkoutUrl ? `${checkoutUrl}/${link.link_code}` : undefined],
    ['title', link.title],
    ['amount', money(link.amount, link.currency)],
    ['status', link.status],
    ['methods', link.accepted_methods.join(', ')],
    ['collected', `${money(link.total_collected, link.currency)} in ${link.payment_count} payment${link.payment_count === 1 ? '' : 's'}`],
    ['expires at', link.expires_at ?? undefined],
    ['redirect url', link.redirect_url ?? undefined],
    ['sub-merchant', link.sub_merchant_id ?? undefined],
    ['created at', link.created_at],
  ]);
}
