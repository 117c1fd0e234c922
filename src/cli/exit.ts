import { EXIT, SilentExit, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { NOT_AN_EMULATOR, SvcError } from '../client/error.js';
import { messageOf } from '../../contract/errors.js';

// How a command line ends, shared by the two entries (main.ts with commander, fast-main.ts
// without): one exit code and one message on stderr (one JSON object under --json), with no
// secret of the command line in it (redact-failure.ts).

/** The exit code for what a command threw, after saying it on stderr (commander's own errors are main.ts's). `args`: the words after `svc`. */
export async function exitCodeFor(err: unknown, args: readonly string[], io: CliIO): Promise<number> {
  if (err instanceof SilentExit) return err.exitCode;
  const json = args.includes('--json');
  // The wrong target for an emulator-only command is a usage error: nothing was sent.
  const usage = err instanceof UsageError || (err instanceof SvcError && err.code === NOT_AN_EMULATOR);
  const code = err instanceof SvcError ? err.code : usage ? 'USAGE_ERROR' : 'ERROR';
  // The redaction rules are loaded only here: the fast path's commands import this module, and a success never reads it.
  const message = (await import('./redact-failure.js')).redactorFor(args, io.env)(messageOf(err));
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
