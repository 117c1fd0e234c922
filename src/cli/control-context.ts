import { ControlApi } from '../client/control.js';
import { resolveBaseUrl } from './config/resolve.js';
import { clientOptions, traceLine } from './context.js';
import type { ApiResult } from '../client/http.js';
import type { CliIO } from './io.js';
import type { CommonFlags } from './flags.js';
import { Output } from './output.js';

// What an emulator-only command needs: the emulator's base URL and control token, and the
// control API's client. Apart from context.ts so the API commands (and the fast path,
// fast-path.ts) do not load the control API's route table.

export interface ControlContext {
  baseUrl: string;
  /** --control-token, SVC_CONTROL_TOKEN or the discovered emulator's (status --wait probes without ControlApi). */
  controlToken?: string;
  control: ControlApi;
  out: Output;
  traced<T>(result: ApiResult<T>): ApiResult<T>;
}

export function controlContext(flags: CommonFlags, io: CliIO): ControlContext {
  const { baseUrl, controlToken } = resolveBaseUrl(flags, { env: io.env, cwd: io.cwd });
  const control = new ControlApi({ baseUrl, controlToken, ...clientOptions(flags, io) });
  const out = new Output(io, Boolean(flags.json), 'emulator');
  return { baseUrl, controlToken, control, out, traced: (r) => traceLine(out, r, flags.verbose) };
}

