import type { Command } from 'commander';

// Where a command reads and writes, and what it sees of its surroundings — passed to each
// invocation (as the GitHub CLI passes its IOStreams), never read from `process` by a command.
// bin/svc.js runs main() with processIO(); tests run main() in their own process with streams
// that collect the output, their own env and cwd, and a sleep that records the client's
// retry waits instead of waiting them.

/** An output stream, and whether it is a terminal (colour, line width, prompts). */
export interface OutStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
}

/** Standard input; a terminal only when a person can answer a prompt on it. */
export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

export type Env = Record<string, string | undefined>;

export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: Env;
  /** Where relative paths and emulator discovery (./.svc) start. */
  cwd: string;
  /** The API client's wait between retries (real timers when absent). */
  sleep?(ms: number): Promise<void>;
  /** Unix time in ms where a command checks a time against now (signature tolerance); Date.now when absent. */
  now?(): number;
  /** Stops a command that runs until interrupted (listen --port), as Ctrl-C does; the process's SIGINT/SIGTERM when absent. */
  interrupt?: AbortSignal;
}

/** The real process's streams, environment and folder. */
export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Read on first use only: creating process.stdin costs cold-start time most commands never need.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Each program's IO, keyed by its root command: set once by buildProgram, read by the command that runs. */
const programIO = new WeakMap<Command, CliIO>();

export function attachIO(program: Command, io: CliIO): void {
  programIO.set(program, io);
}

/** The IO of the program `cmd` belongs to. */
export function ioOf(cmd: Command): CliIO {
  let root = cmd;
  while (root.parent) root = root.parent;
  const io = programIO.get(root);
  if (!io) throw new Error(`svc ${cmd.name()}: the command was not built by buildProgram (no IO attached)`);
  return io;
}
