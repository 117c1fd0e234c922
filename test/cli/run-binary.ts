import { spawn } from 'node:child_process';
import { svcBin } from '../helpers/svc-process.js';
import { cliResult, type CliOptions, type CliResult } from './cli-result.js';

// The built `svc` binary in a child process, the way a script runs it: stdin closed (or fed),
// no terminal, none of the caller's SVC_* or CI variables. Only for what a real process alone
// shows (a closed pipe, signals, a command that owns the process, the bin's own fast paths, a
// smoke test per command family); everything else runs in-process (run-in-process.ts). A run
// that does not finish in time is killed and reported as hung — a prompt without a TTY must
// never wait.

/** The caller's environment without SVC_*, CI and FORCE_COLOR, with NO_COLOR, then `extra` (undefined removes). */
function binaryEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^SVC_|^CI$|^FORCE_COLOR$/.test(k)) env[k] = v;
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runBinary(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [svcBin, ...args], { cwd: opts.cwd, env: binaryEnv(opts.env), stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const timeoutMs = opts.timeoutMs ?? 20_000;
  return new Promise((ok, fail) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`svc ${args.join(' ')} hung for ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(guard);
      ok(cliResult(args, code, stdout, stderr));
    });
  });
}

export interface LongRun {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout or stderr (rejects after timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends SIGINT (Ctrl-C) and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

/**
 * A command that runs until stopped (listen, tail), started the way a developer does: always
 * the binary, because it stops on the process's own SIGINT.
 */
export function startCli(args: string[], opts: CliOptions = {}): LongRun {
  const child = spawn(process.execPath, [svcBin, ...args], { cwd: opts.cwd, env: binaryEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  child.stdout!.on('data', (c) => ((stdout += c), poke()));
  child.stderr!.on('data', (c) => ((stderr += c), poke()));
  const exited = new Promise<number | null>((ok) => child.once('close', (code) => (poke(), ok(code))));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((ok, fail) => {
        const check = () => {
          const m = stdout.match(pattern) ?? stderr.match(pattern);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            ok(m);
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            fail(new Error(`svc ${args[0]} exited (${child.exitCode}) before ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`no ${pattern} from svc ${args.join(' ')} within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async interrupt() {
      if (child.exitCode === null) child.kill('SIGINT');
      const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(guard);
      return code;
    },
  };
}
