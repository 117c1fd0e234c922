import type { Command } from 'commander';
import { parseDuration } from '../../../../contract/formats.js';
import { UsageError } from '../../errors.js';
import { controlContext } from '../../control-context.js';
import { discoveryPlaces } from '../../config/discover.js';
import type { CommonFlags, FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import { genericLines, money } from '../../output.js';
import { maskSecret } from '../../mask.js';
import { merchantScope } from './merchant.js';
import type { CliIO } from '../../io.js';
import { messageOf } from '../../../../contract/errors.js';

// Read-mostly control actions: health, keys, clock, OTP inbox, events, users, metrics.

/**
 * Health; with --wait, tried until the emulator answers or --timeout passes (status-wait.ts):
 * first until there is one to ask (a background `svc emulator start` writes its discovery file
 * once it listens), then until it answers, all within --timeout.
 */
export async function status(_a: string[], flags: FlagsOf<typeof EMULATOR.status>, io: CliIO): Promise<void> {
  if (!flags.wait) {
    const ctx = controlContext(flags, io);
    const { data } = ctx.traced(await ctx.control.health());
    ctx.out.result(data, `Emulator at ${ctx.baseUrl}`, () => ctx.out.kv([['status', data.ok ? 'ok' : 'not ok']]));
    return;
  }
  const { waitForEmulator, waitForTarget, formatMs } = await import('./status-wait.js');
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((ok) => setTimeout(ok, ms)));
  const found = await waitForTarget(() => controlContext(flags, io), {
    timeoutMs: flags.timeout,
    sleep,
    onFirstMiss: () => {
      if (!flags.json) io.stderr.write(`waiting up to ${formatMs(flags.timeout)} for an emulator to start here (no base URL, no ${discoveryPlaces(io.cwd, io.env)} yet)…\n`);
    },
  });
  const ctx = found.target;
  const ready = await waitForEmulator({
    baseUrl: ctx.baseUrl,
    timeoutMs: Math.max(1, flags.timeout - found.waitedMs),
    headers: { 'x-trace-id': ctx.control.http.traceId },
    controlToken: ctx.controlToken,
    sleep,
    onFirstMiss: (reason) => {
      if (!ctx.out.json) ctx.out.status(`waiting up to ${formatMs(flags.timeout - found.waitedMs)} for the emulator at ${ctx.baseUrl} (${reason})…`);
    },
  });
  ctx.traced({ data: ready.data, status: 200, traceId: ready.traceId, replayed: false, attempts: ready.attempts });
  ctx.out.result(ready.data, `Emulator at ${ctx.baseUrl}`, () =>
    ctx.out.kv([
      ['status', ready.data.ok ? 'ok' : 'not ok'],
      ['answered after', ready.attempts === 1 && found.tries === 1 ? 'the first try' : `${formatMs(found.waitedMs + ready.waitedMs)} (${ready.attempts} ${ready.attempts === 1 ? 'try' : 'tries'})`],
    ]),
  );
}

/** The dashboard's address, once the emulator answers there (so a wrong host fails here, not in a browser). */
export async function dashboard(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  ctx.traced(await ctx.control.health());
  const url = `${ctx.baseUrl.replace(/\/+$/, '')}/dashboard`;
  ctx.out.result({ url }, 'Dashboard', () => ctx.out.kv([['open', url]]));
}

export async function keys(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.keys());
  ctx.out.result(data, 'API keys', () =>
    ctx.out.table(
      ['NAME', 'KEY', 'ENV', 'MERCHANT', 'SCOPES', 'REVOKED'],
      data.keys.map((k) => [k.name, maskSecret(k.key), k.environment, k.merchant_id, k.scopes.length >= 10 ? 'all' : k.scopes.join(','), k.revoked ? 'yes' : 'no']),
    ),
  );
}

export async function clockShow(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.clock());
  ctx.out.result(data, 'Emulator clock', () => ctx.out.kv([['mode', data.mode], ['now', data.now], ['pending timers', data.pending_timers]]));
}

/**
 * An advance answers once everything due on the way has run, each webhook attempt waiting for
 * its receiver up to --webhook-timeout (wall time): over receivers that never answer that is
 * minutes, not the 30 s every other call waits. Unless --timeout was given, wait 10 minutes.
 */
const ADVANCE_TIMEOUT_MS = 10 * 60_000;

export async function clockAdvance([by]: string[], flags: FlagsOf<typeof EMULATOR.clockAdvance>, io: CliIO, cmd?: Command): Promise<void> {
  if ((by === undefined) === !flags.toNextDelivery) throw new UsageError('give either a duration (e.g. 2h) or --to-next-delivery.');
  if (cmd?.getOptionValueSource('timeout') === 'default') flags = { ...flags, timeout: ADVANCE_TIMEOUT_MS };
  // The emulator's own duration parser: "2" (no unit) is refused here, before anything is sent.
  if (by !== undefined) {
    try {
      parseDuration(by);
    } catch (err) {
      throw new UsageError(`clock advance: ${messageOf(err)}`);
    }
  }
  const ctx = controlContext(flags, io);
  if (flags.toNextDelivery) {
    const { data } = ctx.traced(await ctx.control.advanceToNextDelivery());
    const title = data.due_at === null ? 'No webhook attempt is waiting; the clock did not move' : `Clock advanced by ${data.advanced_ms} ms to the next webhook attempt`;
    ctx.out.result(data, title, () =>
      ctx.out.kv([['now', data.clock.now], ['due', data.due_at ?? '-'], ['deliveries', data.deliveries.join(', ') || '-'], ['pending timers', data.clock.pending_timers]]),
    );
    return;
  }
  const { data } = ctx.traced(await ctx.control.advanceClock(by));
  ctx.out.result(data, `Clock advanced by ${by}`, () => ctx.out.kv([['mode', data.mode], ['now', data.now], ['pending timers', data.pending_timers]]));
}

export async function otp([phone]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.otp(phone));
  ctx.out.result(data, `OTP for ${phone}`, () => genericLines(ctx.out, data));
}

/** Newest first, at most --limit (the control API lists oldest first; --json gets the same cut). */
export async function events(_a: string[], flags: FlagsOf<typeof EMULATOR.events>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const scope = await merchantScope(ctx.control, flags, io).catch(() => undefined);
  const { data } = ctx.traced(
    await ctx.control.events({ merchant_id: flags.merchant ?? scope?.merchantId, environment: flags.environment ?? scope?.environment, type: flags.type }),
  );
  const newest = [...data.events].reverse().slice(0, flags.limit);
  const rows = newest.map((e) => {
    const body = JSON.parse(e.body) as { data?: { payment?: { id?: string; amount?: number; currency?: string } } };
    const p = body.data?.payment;
    return [e.id, e.type, e.environment, p?.id ?? '', p?.amount !== undefined && p.currency ? money(p.amount, p.currency) : '', e.created_at];
  });
  const more = data.events.length - newest.length;
  ctx.out.result({ ...data, events: newest }, `Events, newest first (${newest.length} of ${data.events.length})`, () => [
    ...ctx.out.table(['ID', 'TYPE', 'ENV', 'PAYMENT', 'AMOUNT', 'CREATED'], rows),
    ...(more > 0 ? [ctx.out.c.dim(`  … ${more} older (--limit ${Math.min(500, data.events.length)} to see them)`)] : []),
  ]);
}

/** One row per service user with the balances of their test and live wallets. */
export async function users(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.users());
  const balances = (w: Partial<Record<string, number>> | undefined) =>
    Object.entries(w ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([currency, amount]) => money(amount!, currency))
      .join(', ') || '—';
  ctx.out.result(data, 'Service users', () =>
    ctx.out.table(
      ['NAME', 'PHONE', 'BUSINESS', 'TEST BALANCE', 'LIVE BALANCE'],
      data.users.map((u) => [u.name, u.phone, u.business ? 'yes' : 'no', balances(u.wallets.test), balances(u.wallets.live)]),
    ),
  );
}

export async function metrics(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.metrics());
  ctx.out.result(data, 'Emulator metrics', () => genericLines(ctx.out, data));
}
