import { performance } from 'node:perf_hooks';
import { CONTROL_TOKEN_HEADER, GUARD_HEADER } from '../../../../contract/network.js';
import { guardRefusal } from '../../../client/control.js';
import { NOT_AN_EMULATOR, SvcError, networkMessage } from '../../../client/error.js';
import { send, TransportTimeout } from '../../../client/transport.js';
import { NoBaseUrl } from '../../config/resolve.js';
import { codeOf } from '../../../../contract/errors.js';

// `svc emulator status --wait`: GET /_emulator/health until the emulator answers, for compose
// health checks, CI scripts and `svc emulator start &` in a shell. Only "nobody answered yet"
// is tried again (connection refused or reset, a host name not in DNS yet, a timeout: a
// container network may drop packets until the service is up): that is what an emulator that
// is still starting looks like. Any HTTP answer decides at once: the emulator's identity is
// ready; a refusal by its door guard (Svc-Guard) is a wrong host name or token, and something
// else answering is not an emulator — neither gets better by waiting.
//
// Each try is one request (not the client's five-attempt retry policy), and the time is kept
// as the tries took plus the pauses asked of the IO's sleep, so an in-process test that
// answers the sleep at once runs the whole schedule without waiting it. As ControlApi does,
// the control token goes out only once the emulator's own door has asked for it.

/** Pause between tries: short, an emulator starts in well under a second. */
export const RETRY_PAUSE_MS = 250;
/** A single try never waits longer than this for an answer (a host that swallows packets)... */
const PROBE_TIMEOUT_MAX_MS = 5_000;
/** ...nor shorter, even at the very end of the deadline. */
const PROBE_TIMEOUT_MIN_MS = 200;

/** The failures that mean "nobody answered yet". */
const NOT_YET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  // A compose service's name is in DNS only once its container runs.
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const EMULATOR_IDENTITY = 'svc-emulator';

export interface WaitOptions {
  baseUrl: string;
  /** How long to keep trying, in all. */
  timeoutMs: number;
  /** Sent with every try (the trace id). */
  headers: Record<string, string>;
  /** Offered once the emulator's door asks for it (401, Svc-Guard: token). */
  controlToken?: string;
  sleep(ms: number): Promise<void>;
  /** Called once, when the first try found nobody (the CLI says it is waiting). */
  onFirstMiss?(reason: string): void;
}

export interface Health {
  ok: boolean;
  service: string;
}

export interface Ready {
  data: Health;
  traceId: string | null;
  attempts: number;
  waitedMs: number;
}

type Probe =
  | { kind: 'ready'; data: Health; traceId: string | null }
  | { kind: 'not-yet'; reason: string }
  | { kind: 'token-asked'; refusal: SvcError };

/**
 * `find()` (the target: base URL and token), tried again while it finds none yet — a background
 * `svc emulator start` has not written its discovery file — until `timeoutMs`; any other
 * refusal ends it at once. The time is kept as in waitForEmulator.
 */
export async function waitForTarget<T>(find: () => T, o: Pick<WaitOptions, 'timeoutMs' | 'sleep'> & { onFirstMiss(reason: string): void }): Promise<{ target: T; waitedMs: number; tries: number }> {
  let waited = 0;
  for (let tries = 1; ; tries++) {
    const started = performance.now();
    try {
      return { target: find(), waitedMs: waited + (performance.now() - started), tries };
    } catch (err) {
      if (!(err instanceof NoBaseUrl)) throw err;
      waited += performance.now() - started;
      const left = o.timeoutMs - waited;
      if (left <= 0) throw new SvcError('TIMEOUT', 0, `no emulator to wait for appeared within ${formatMs(o.timeoutMs)} (${tries} ${tries === 1 ? 'try' : 'tries'}): ${err.message}`, null);
      if (tries === 1) o.onFirstMiss(err.message);
      const pause = Math.min(RETRY_PAUSE_MS, left);
      const before = performance.now();
      await o.sleep(pause);
      waited += Math.max(pause, performance.now() - before);
    }
  }
}

export async function waitForEmulator(o: WaitOptions): Promise<Ready> {
  const base = o.baseUrl.replace(/\/+$/, '');
  const headers = { accept: 'application/json', 'user-agent': 'svc-cli', ...o.headers };
  let tokenSent = false;
  let waited = 0;
  let attempts = 0;
  for (;;) {
    attempts++;
    const probeTimeout = Math.min(PROBE_TIMEOUT_MAX_MS, Math.max(PROBE_TIMEOUT_MIN_MS, o.timeoutMs - waited));
    const started = performance.now();
    const probe = await probeHealth(base, tokenSent && o.controlToken ? { ...headers, [CONTROL_TOKEN_HEADER]: o.controlToken } : headers, probeTimeout);
    waited += performance.now() - started;
    if (probe.kind === 'ready') return { data: probe.data, traceId: probe.traceId, attempts, waitedMs: waited };
    if (probe.kind === 'token-asked') {
      // Asked for the token: offer it once, at once; asked again (or none to offer) is a refusal.
      if (tokenSent || o.controlToken === undefined) throw guardRefusal(base, probe.refusal, tokenSent);
      tokenSent = true;
      continue;
    }
    if (attempts === 1) o.onFirstMiss?.(probe.reason);
    const left = o.timeoutMs - waited;
    if (left <= 0) {
      throw new SvcError(
        'TIMEOUT',
        0,
        `the emulator at ${base} did not answer within ${formatMs(o.timeoutMs)} (waited ${formatMs(waited)}, ${attempts} ${attempts === 1 ? 'try' : 'tries'}; the last: ${probe.reason}). Is it starting (svc emulator start), is the URL right, or does it need longer (--timeout)?`,
        null,
      );
    }
    // A sleep that returns early (a test's) still counts as the pause asked for.
    const pause = Math.min(RETRY_PAUSE_MS, left);
    const before = performance.now();
    await o.sleep(pause);
    waited += Math.max(pause, performance.now() - before);
  }
}

/** One GET /_emulator/health: ready, nobody there yet, the token asked for, or (thrown) an answer that waiting cannot change. */
async function probeHealth(base: string, headers: Record<string, string>, timeoutMs: number): Promise<Probe> {
  let res;
  try {
    res = await send(`${base}/_emulator/health`, { method: 'GET', headers, timeoutMs });
  } catch (err) {
    const code = codeOf(err);
    if (err instanceof TransportTimeout) return { kind: 'not-yet', reason: `no answer within ${formatMs(timeoutMs)}` };
    if (code !== undefined && NOT_YET.has(code)) return { kind: 'not-yet', reason: notYetReason(code) };
    // TLS trouble and the like: something is there, and waiting will not change it.
    throw new SvcError('NETWORK_ERROR', 0, networkMessage(base, err), null);
  }
  const traceId = first(res.headers['x-trace-id']) ?? null;
  const body = parseJson(res.text) as { success?: boolean; data?: Partial<Health>; error?: { code?: unknown; message?: unknown } } | undefined;
  const guard = first(res.headers[GUARD_HEADER.toLowerCase()]);
  if (guard !== undefined) {
    const code = typeof body?.error?.code === 'string' ? body.error.code : `HTTP_${res.statusCode}`;
    const said = typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${res.statusCode}`;
    const refusal = new SvcError(code, res.statusCode, said, traceId, guard);
    if (guard === 'token') return { kind: 'token-asked', refusal };
    // The guard's own message names the fix (--allow-host).
    throw guardRefusal(base, refusal, false);
  }
  if (res.statusCode === 200 && body?.success === true && body.data?.service === EMULATOR_IDENTITY) {
    return { kind: 'ready', data: body.data as Health, traceId };
  }
  const what = res.statusCode === 200 ? 'its /_emulator/health does not name an svc emulator' : `GET /_emulator/health answered HTTP ${res.statusCode}`;
  throw new SvcError(NOT_AN_EMULATOR, 0, `${base} answers, but it is not an svc emulator (${what}); waiting will not change that. Check --base-url / SVC_BASE_URL.`, traceId);
}

/** A network failure that waiting may cure, in a few words. */
function notYetReason(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (nothing listening)';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection closed before an answer';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ETIMEDOUT':
      return 'connection timed out';
    default:
      return `network unreachable (${code})`;
  }
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** 250 ms, 2.5 s, 30 s, 2 min. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Number((ms / 60_000).toFixed(1))} min`;
}
