// The CLI's exit codes, decided in one place (main.ts):
//   0 success · 1 API or network error (and a failed payment under --fail-on-failed)
//   2 usage error: a bad flag, a missing value without a TTY to ask for it
export const EXIT = { ok: 0, api: 1, usage: 2 } as const;

export class UsageError extends Error {
  readonly exitCode = EXIT.usage;
}

/** A failure already reported to the user; main only sets the exit code. */
export class SilentExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/**
 * `svc … | head`: when the reader goes away, the next write fails with EPIPE. That is not an
 * error of the command: stop quietly (the exit code is the shell's business), never with a
 * stack trace.
 */
export function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
}
