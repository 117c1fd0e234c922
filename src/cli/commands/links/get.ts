import { apiContext, checkoutUrl } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { LINKS } from './flags.js';
import { linkLines } from './show.js';
import type { CliIO } from '../../io.js';

export async function run([id]: string[], flags: FlagsOf<typeof LINKS.get>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  // A link code (PL-XXXXXXXX) is read through its own route; anything else is an id.
  const result = /^PL-/.test(id) ? await ctx.api.getLinkByCode(id) : await ctx.api.getLink(id);
  const { data, checkoutUrl: answered } = ctx.traced(result);
  ctx.out.result(data, 'Payment link', () => linkLines(ctx.out, data, checkoutUrl(ctx.target, io.env, answered)));
}
