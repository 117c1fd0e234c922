import { SvcApi } from '../client/api.js';
import { ControlApi } from '../client/control.js';
import type { ApiResult } from '../client/http.js';
import { resolveBaseUrl, resolveTarget, type ResolveOptions, type Target } from './config/resolve.js';
import type { CommonFlags } from './options.js';
import { Output } from './output.js';

// What an API command needs: the resolved target (base URL, key, environment), the typed
// client, and the output helper carrying the TEST / LIVE marker.

export interface ApiContext {
  target: Target;
  api: SvcApi;
  out: Output;
  /** Shows the trace id of a finished call on stderr (human mode). */
  traced<T>(result: ApiResult<T>): ApiResult<T>;
}

const onRetry = (info: { attempt: number; waitMs: number; reason: string }) =>
  process.stderr.write(`retrying in ${(info.waitMs / 1000).toFixed(1)} s (attempt ${info.attempt + 1} of 5): ${info.reason}\n`);

export function apiContext(flags: CommonFlags, options: ResolveOptions = {}): ApiContext {
  const target = resolveTarget(flags, options);
  const api = new SvcApi({ baseUrl: target.baseUrl, apiKey: target.apiKey, timeoutMs: flags.timeout, traceId: flags.traceId, onRetry });
  const out = new Output(Boolean(flags.json), target.environment);
  return { target, api, out, traced: (r) => traceLine(out, r) };
}

export interface ControlContext {
  baseUrl: string;
  control: ControlApi;
  out: Output;
  traced<T>(result: ApiResult<T>): ApiResult<T>;
}

export function controlContext(flags: CommonFlags): ControlContext {
  const { baseUrl } = resolveBaseUrl(flags);
  const control = new ControlApi({ baseUrl, timeoutMs: flags.timeout, traceId: flags.traceId, onRetry });
  const out = new Output(Boolean(flags.json), 'emulator');
  return { baseUrl, control, out, traced: (r) => traceLine(out, r) };
}

function traceLine<T>(out: Output, result: ApiResult<T>): ApiResult<T> {
  if (!out.json && result.traceId) out.status(out.e.dim(`trace ${result.traceId}${result.replayed ? ' (idempotent replay)' : ''}`));
  return result;
}
