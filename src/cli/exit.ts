import { EXIT, SilentExit, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { NOT_AN_EMULATOR, SvcError } from '../client/error.js';
import { messageOf } from '../../contract/errors.js';

// How a command line ends, shared by the two entries (main.ts with commander, fast-main.ts
// without): one exit code and one message on stderr (one JSON object under --json).

/** The exit code for what a command threw, after saying it on stderr (commander's own errors are main.ts's). */
export function exitCodeFor(err: unknown, json: boolean, io: CliIO): number {
  if (err instanceof SilentExit) return err.exitCode;
  // The wrong target for an emulator-only command is a usage error: nothing was sent.
  const usage = err instanceof UsageError || (err instanceof SvcError && err.code === NOT_AN_EMULATOR);
  const code = err instanceof SvcError ? err.code : usage ? 'USAGE_ERROR' : 'ERROR';
  const message = messageOf(err);
  const traceId = err instanceof SvcError ? err.trace_id : null;
  if (json) {
    // Scripts read one JSON object from stderr; stdout stays empty.
    io.stderr.write(`${JSON.stringify({ error: { code, message, trace_id: traceId } })}\n`);
  } else if (usage) {
    io.stderr.write(`error: ${message}\n`);
  } else if (err instanceof SvcError) {
    const status = err.status ? ` (HTTP ${err.status})` : '';
    io.stderr.write(`error: ${err.code}${status}: ${message}\n${traceId ? `  trace id: ${traceId}\n` : ''}`);
  } else {
    io.stderr.write(`error: ${message}\n`);
  }
  return usage ? EXIT.usage : EXIT.api;
}
