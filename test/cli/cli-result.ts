// What a CLI run gives a test, however it ran (in-process or the built binary).

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document (throws, naming the output, when it is not). */
  json(): any;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Written to stdin, then closed; without it stdin is closed at once. */
  input?: string | Buffer;
  timeoutMs?: number;
  /**
   * Run the built bin/svc.js in a child process instead of main() in this one. Only for what a
   * real process alone shows; the call site says which (see run-binary.ts).
   */
  binary?: boolean;
  /** In-process only: the API client's wait between retries (default: real timers). */
  sleep?(ms: number): Promise<void>;
}

export function cliResult(args: string[], code: number | null, stdout: string, stderr: string): CliResult {
  return {
    code,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout of svc ${args.join(' ')} is not one JSON document:\n${stdout}\nstderr: ${stderr}`);
      }
    },
  };
}
