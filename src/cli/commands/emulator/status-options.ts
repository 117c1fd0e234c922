import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseDuration } from '../../../../contract/formats.js';
import { apiOptions } from '../../options.js';

// `svc emulator status` flags: --wait, and a --timeout that takes a duration. Every other
// command's --timeout is the per-attempt request timeout in ms (options.ts); here it also says
// how long --wait keeps trying, which reads as `--timeout 30s` in a compose file or a CI
// script. A whole number still means milliseconds, as on the other commands.

export const STATUS_TIMEOUT_DEFAULT_MS = 30_000;
const TIMEOUT_MAX_MS = 3_600_000;

/** `30s`, `2m`, `1m30s`, or a whole number of ms; from 1 ms to 1 h. */
export function durationOrMs(value: string): number {
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value);
  else {
    try {
      ms = parseDuration(value);
    } catch (err) {
      throw new InvalidArgumentError(`${(err as Error).message}; or a whole number of milliseconds.`);
    }
  }
  if (ms < 1 || ms > TIMEOUT_MAX_MS) throw new InvalidArgumentError(`expected a duration from 1ms to 1h, got "${value}".`);
  return ms;
}

/** The control API's shared flags, with --wait and a --timeout that takes a duration. */
export function statusOptions(cmd: Command): Command {
  const timeout = new Option('--timeout <duration>', 'with --wait: how long to keep trying in all; without: how long one request may take (30s, 2m, or ms)')
    .argParser(durationOrMs)
    .default(STATUS_TIMEOUT_DEFAULT_MS, '30s');
  return apiOptions(cmd, timeout).option('--wait', 'keep trying until the emulator answers (exit 0) or --timeout passes (exit 1); for health checks and CI');
}
