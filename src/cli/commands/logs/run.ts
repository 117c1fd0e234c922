import type { z } from 'zod';
import type { RequestLogEntry, RequestLogPage } from '../../../../contract/control/requests.js';
import { controlContext, type ControlContext } from '../../control-context.js';
import type { FlagsOf } from '../../flags.js';
import type { LOGS } from './flags.js';
import type { CliIO } from '../../io.js';
import { genericLines } from '../../output.js';
import { NOT_AN_EMULATOR, SvcError } from '../../../client/error.js';
import { curlOf, lostToRedaction } from '../../../../contract/request-curl.js';

// The request log, read through the control API. `tail` polls for entries newer than the
// last one it printed (polling needs no stream of its own and survives an emulator restart on
// the same port by itself).

type Entry = z.output<typeof RequestLogEntry>;
type Page = z.output<typeof RequestLogPage>;

type FilterFlags = FlagsOf<typeof LOGS.tail>;

/** The control API's query for the Stripe-style flags (a status code wins over SUCCEEDED/FAILED). */
function query(flags: FilterFlags): Record<string, string | number | undefined> {
  return {
    method: flags.filterHttpMethod,
    path: flags.filterRequestPath,
    status: flags.filterStatusCode !== undefined ? String(flags.filterStatusCode) : flags.filterRequestStatus?.toLowerCase(),
    environment: flags.filterEnvironment,
    key: flags.filterKey,
  };
}

/** One line a request: time, method, path, status, duration, key, trace id, what was special. */
function line(e: Entry): string {
  const marks = [e.idempotency, e.error_code, e.fault && `fault ${e.fault}`].filter(Boolean).join(' ');
  return [e.at.slice(11, 23), e.method.padEnd(6), e.path, e.status, `${e.duration_ms.toFixed(1)}ms`, e.key_name ?? '-', e.trace_id, e.id, marks].filter((p) => p !== '').join('  ');
}

export async function list(_a: string[], flags: FlagsOf<typeof LOGS.list>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.get<Page>('/requests', { ...query(flags), limit: flags.limit, since: flags.since }));
  ctx.out.result(data, `Requests (${data.requests.length}, newest first)`, () => data.requests.map(line));
}

export async function get([id]: string[], flags: FlagsOf<typeof LOGS.get>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.get<Entry>(`/requests/${encodeURIComponent(id)}`));
  if (flags.curl) {
    io.stdout.write(`${curlOf(data, ctx.baseUrl)}\n`);
    if (lostToRedaction(data.request_body) || lostToRedaction(data.path)) io.stderr.write('note: the log keeps no secret: fill in the redacted values before running it.\n');
    return;
  }
  ctx.out.result(data, `Request ${data.id}`, () => [
    ...genericLines(ctx.out, { ...data, request_body: undefined, response_body: undefined }),
    '',
    'request body:',
    pretty(data.request_body),
    '',
    'response body:',
    pretty(data.response_body),
  ]);
}

const pretty = (text: string | null): string => {
  if (text === null) return '  (none)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2).replace(/^/gm, '  ');
  } catch {
    return `  ${text}`;
  }
};


/** Entries at or after `since` not printed yet, oldest first: every page of them, not only the newest 100. */
async function newerThan(ctx: ControlContext, flags: FilterFlags, since: string | undefined, seen: Set<string>): Promise<Entry[]> {
  const found: Entry[] = [];
  let before: string | undefined;
  for (;;) {
    const { data } = await ctx.control.get<Page>('/requests', { ...query(flags), since, before, limit: 100 });
    const fresh = data.requests.filter((e) => !seen.has(e.id));
    found.push(...fresh);
    if (data.requests.length < 100 || fresh.length < data.requests.length || data.next_before === null) break;
    before = data.next_before;
  }
  return found.reverse();
}

/**
 * No answer from the host (not up yet, restarting): tail waits for it. A host that answers as
 * something else (NOT_AN_EMULATOR) never will be one, and any other error is the command's.
 */
const emulatorAway = (err: unknown): err is SvcError => err instanceof SvcError && err.status === 0 && err.code !== NOT_AN_EMULATOR;

/** Polls for new entries (oldest first on screen) until interrupted; a lost emulator is said once and retried. */
export async function tail(_a: string[], flags: FilterFlags, io: CliIO): Promise<void> {
  const ctx: ControlContext = controlContext(flags, io);
  const seen = new Set<string>();
  let since: string | undefined;
  let down = false;
  // What is already in the log is history (svc logs list): tail starts from the newest entry.
  try {
    const { data } = await ctx.control.get<Page>('/requests', { limit: 1 });
    since = data.requests[0]?.at;
    for (const e of data.requests) seen.add(e.id);
  } catch (err) {
    if (!emulatorAway(err)) throw err;
  }
  // On stderr in --json mode too: stdout stays one JSON object a line.
  io.stderr.write(`Ready: printing requests as ${ctx.baseUrl} answers them (Ctrl-C stops)\n`);
  // Ctrl-C ends the loop below (exit 0); before it, the first read ends as any command does.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  io.interrupt?.addEventListener('abort', onSignal);
  try {
    while (!stop.signal.aborted) {
      try {
        const fresh = await newerThan(ctx, flags, since, seen);
        if (down) io.stderr.write('reconnected\n');
        down = false;
        for (const e of fresh) {
          if (seen.has(e.id)) continue;
          seen.add(e.id);
          io.stdout.write(flags.json ? `${JSON.stringify(e)}\n` : `${line(e)}\n`);
          since = e.at;
        }
      } catch (err) {
        if (!emulatorAway(err)) throw err;
        if (!down) io.stderr.write(`lost the emulator (${err.message}); retrying\n`);
        down = true;
      }
      await new Promise<void>((ok) => {
        const wake = () => {
          clearTimeout(t);
          stop.signal.removeEventListener('abort', wake);
          ok();
        };
        const t = setTimeout(wake, 250);
        stop.signal.addEventListener('abort', wake, { once: true });
      });
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    io.interrupt?.removeEventListener('abort', onSignal);
  }
}
