import { EXIT } from './errors.js';
import { exitCodeFor, quietOnClosedPipe } from './exit.js';
import type { FastInvocation } from './fast-path.js';
import type { CliIO } from './io.js';
import type { CommonFlags } from './options.js';
import { loadColour } from './output.js';
import { run as linksGet } from './commands/links/get.js';
import { run as paymentsGet } from './commands/payments/get.js';

// What the fast path runs (fast-path.ts accepted the command line): the same run() of the same
// command module that commander's action calls (options.ts lazy()), with the same flags, IO
// and exit codes. Imported statically here so the fast path is two files: fast.cjs, which
// decides, and this one, which runs (scripts/build-bundles.mjs).

type Run = (positional: string[], flags: CommonFlags, io: CliIO) => Promise<void>;

const RUNS: Record<string, Run> = { 'links get': linksGet, 'payments get': paymentsGet };

export async function runFastLine(invocation: FastInvocation, io: CliIO): Promise<number> {
  const run = RUNS[invocation.command.words.join(' ')];
  if (io.stdout === process.stdout || io.stderr === process.stderr) quietOnClosedPipe();
  try {
    await loadColour(io);
    await run(invocation.positional, invocation.flags, io);
    return EXIT.ok;
  } catch (err) {
    return exitCodeFor(err, invocation.flags.json === true, io);
  }
}
