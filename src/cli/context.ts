import { SvcApi } from '../client/api.js';
import type { ApiResult } from '../client/http.js';
import type { RetryInfo } from '../client/http.js';
import { MAX_ATTEMPTS } from '../client/retry.js';
import { describeSource, resolveTarget, type Target } from './config/resolve.js';
import type { CliIO, Env } from './io.js';
import type { CommonFlags } from './flags.js';
import { Output } from './output.js';

// What an API command needs: the resolved target (base URL, key, environment), the typed
// client, and the output helper carrying the TEST / LIVE marker — all built from the
// invocation's IO (its environment and folder, its streams, its retry sleep).

export interface ApiContext {
  target: Target;
  api: SvcApi;
  out: Output;
  io: CliIO;
  /** Shows the trace id of a finished call on stderr (human mode, --verbose). */
  traced<T>(result: ApiResult<T>): ApiResult<T>;
}

/** The client options every command shares: each retry said on stderr, and the IO's sleep between attempts. */
export const clientOptions = (flags: CommonFlags, io: CliIO) => ({
  timeoutMs: flags.timeout,
  traceId: flags.traceId,
  onRetry: (info: RetryInfo) => io.stderr.write(`retrying in ${(info.waitMs / 1000).toFixed(1)} s (attempt ${info.attempt + 1} of ${MAX_ATTEMPTS}): ${info.reason}\n`),
  sleep: io.sleep,
});

export function apiContext(flags: CommonFlags, io: CliIO, options: { newProfile?: boolean } = {}): ApiContext {
  const target = resolveTarget(flags, { ...options, env: io.env, cwd: io.cwd });
  if (target.environment === 'live' && target.apiKeySource !== target.baseUrlSource) {
    // A live key from one place and the host from another: say so, never silently.
    io.stderr.write(`note: the LIVE key from ${describeSource(target.apiKeySource)} goes to ${target.baseUrl} (from ${describeSource(target.baseUrlSource)}).\n`);
  }
  const api = new SvcApi({ baseUrl: target.baseUrl, apiKey: target.apiKey, ...clientOptions(flags, io) });
  const out = new Output(io, Boolean(flags.json), target.environment, target.baseUrl);
  return { target, api, out, io, traced: (r) => traceLine(out, r, flags.verbose) };
}

/**
 * {checkout_url} — the spec composes a payer's URL as {checkout_url}/{link_code} and the API
 * never returns it. SVC_CHECKOUT_URL names it; otherwise an emulator's is known (the discovery
 * file's checkout_url; the one an emulator's answer carries, `answered`, from its public URL,
 * however it was reached; or {base_url}/checkout on a loopback host, where the emulator runs);
 * a live host's is not guessed.
 */
export function checkoutUrl(target: Target, env: Env, answered?: string): string | undefined {
  if (env.SVC_CHECKOUT_URL) return env.SVC_CHECKOUT_URL.replace(/\/+$/, '');
  if (target.emulator?.checkout_url && target.baseUrlSource === 'emulator') return target.emulator.checkout_url.replace(/\/+$/, '');
  if (answered) return answered.replace(/\/+$/, '');
  const host = new URL(target.baseUrl).hostname;
  if (host === '127.0.0.1' || host === 'localhost' || host === '[::1]') return `${target.baseUrl}/checkout`;
  return undefined;
}

/** The trace id of a call that worked is noise unless asked for (--verbose); an error always shows its own. */
export function traceLine<T>(out: Output, result: ApiResult<T>, verbose = false): ApiResult<T> {
  // The spec's retry guidance at work: an earlier attempt's answer was lost, and the retry with
  // the same idempotency key got the original one back. Always said: nothing was done twice.
  if (result.replayed && result.attempts > 1) {
    out.status(`recovered by an idempotent replay: attempt ${result.attempts} reused the idempotency key and got the original answer (nothing was done twice).`);
  }
  if (verbose && !out.json && result.traceId) out.status(out.e.dim(`trace ${result.traceId}${result.replayed ? ' (idempotent replay)' : ''}`));
  return result;
}
