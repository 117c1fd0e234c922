import { controlContext } from '../../context.js';
import type { CommonFlags } from '../../options.js';
import { genericLines } from '../../output.js';
import { maskSecret } from '../../mask.js';
import { merchantScope, type MerchantFlags } from './merchant.js';

// Read-mostly control actions: health, keys, clock, OTP inbox, events, users, metrics.

export async function status(_a: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.health());
  ctx.out.result(data, `Emulator at ${ctx.baseUrl}`, () => ctx.out.kv([['status', data.ok ? 'ok' : 'not ok']]));
}

/** The dashboard's address, once the emulator answers there (so a wrong host fails here, not in a browser). */
export async function dashboard(_a: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  ctx.traced(await ctx.control.health());
  const url = `${ctx.baseUrl.replace(/\/+$/, '')}/dashboard`;
  ctx.out.result({ url }, 'Dashboard', () => ctx.out.kv([['open', url]]));
}

export async function keys(_a: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.keys());
  ctx.out.result(data, 'API keys', () =>
    ctx.out.table(
      ['NAME', 'KEY', 'ENV', 'MERCHANT', 'SCOPES', 'REVOKED'],
      data.keys.map((k) => [k.name, maskSecret(k.key), k.environment, k.merchant_id, k.scopes.length >= 10 ? 'all' : k.scopes.join(','), k.revoked ? 'yes' : 'no']),
    ),
  );
}

export async function clockShow(_a: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.clock());
  ctx.out.result(data, 'Emulator clock', () => ctx.out.kv([['mode', data.mode], ['now', data.now], ['pending timers', data.pending_timers]]));
}

export async function clockAdvance([by]: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.advanceClock(by));
  ctx.out.result(data, `Clock advanced by ${by}`, () => ctx.out.kv([['mode', data.mode], ['now', data.now], ['pending timers', data.pending_timers]]));
}

export async function otp([phone]: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.otp(phone));
  ctx.out.result(data, `OTP for ${phone}`, () => genericLines(ctx.out, data));
}

export async function events(_a: string[], flags: MerchantFlags & { type?: string }): Promise<void> {
  const ctx = controlContext(flags);
  const scope = await merchantScope(ctx.control, flags).catch(() => undefined);
  const { data } = ctx.traced(
    await ctx.control.events({ merchant_id: flags.merchant ?? scope?.merchantId, environment: flags.environment ?? scope?.environment, type: flags.type }),
  );
  const rows = (data.events as { id: string; type: string; environment: string; created_at: string; body: string }[]).map((e) => {
    const body = JSON.parse(e.body) as { data?: { payment?: { id?: string; status?: string } } };
    return [e.id, e.type, e.environment, body.data?.payment?.id ?? '', e.created_at];
  });
  ctx.out.result(data, 'Events', () => ctx.out.table(['ID', 'TYPE', 'ENV', 'PAYMENT', 'CREATED'], rows));
}

export async function users(_a: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.get('/users'));
  ctx.out.result(data, 'Service users', () => genericLines(ctx.out, data));
}

export async function metrics(_a: string[], flags: CommonFlags): Promise<void> {
  const ctx = controlContext(flags);
  const { data } = ctx.traced(await ctx.control.metrics());
  ctx.out.result(data, 'Emulator metrics', () => genericLines(ctx.out, data));
}
