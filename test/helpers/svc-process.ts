import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { packageFile } from '../../emulator/assets.js';

// Runs the built `svc` binary as a real child process, the way a user or a CI script does.

export const svcBin = packageFile('bin/svc.js');

export interface ReadyLine {
  base_url: string;
  checkout_url: string;
  data_dir: string;
  keys: Array<{ name: string; key: string; environment: 'test' | 'live'; scopes: string[]; merchant_id: string; revoked: boolean }>;
  dashboard_url: string;
  public_url: string | null;
  control_token: string | null;
  /** Where each option's value came from (by its flag's name in snake case). */
  sources: Record<string, 'flag' | 'env' | 'default'>;
}

export interface SvcProcess {
  child: ChildProcess;
  ready: ReadyLine;
  /** Every byte the child wrote to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the child exited and its pipes closed. */
  done: Promise<number | NodeJS.Signals | null>;
}

/** Calls `onLine` for each complete stdout line of the child. */
export function onLines(child: ChildProcess, onLine: (line: string) => void): void {
  let buffer = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      onLine(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
}

/** Resolves once the child has exited and its output is fully read ('close', not 'exit'). */
export const closed = (child: ChildProcess) =>
  new Promise<number | NodeJS.Signals | null>((ok) => child.once('close', (code, signal) => ok(signal ?? code)));

/** How the process is launched: flags for node itself, and the CPUs it may run on (`taskset -c`). */
export interface Launch {
  nodeArgs?: string[];
  cpus?: string;
  /** The folder it runs in (where the default data dir ./.svc goes); this process's when absent. */
  cwd?: string;
  /** Wraps the final command line, e.g. to run it on another network host (netns.ts: `ip netns exec`). */
  wrap?(command: string, args: string[]): [string, string[]];
}

/**
 * `svc emulator start --json …`, launched as `launch` says: resolves with the parsed ready line.
 * The caller ends it in a finally (or through svcProcesses(), which remembers it from the spawn on).
 */
export function startSvc(args: string[], env?: Record<string, string>, { nodeArgs = [], cpus, cwd, wrap = (c, a) => [c, a] }: Launch = {}, onSpawn?: (child: ChildProcess) => void): Promise<SvcProcess> {
  const argv = [...nodeArgs, svcBin, 'emulator', 'start', '--json', ...args];
  const [command, commandArgs] = cpus === undefined ? wrap(process.execPath, argv) : wrap('taskset', ['-c', cpus, process.execPath, ...argv]);
  const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env });
  onSpawn?.(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const done = closed(child);
  return new Promise((ok, fail) => {
    let first = true;
    onLines(child, (line) => {
      if (!first) return;
      first = false;
      try {
        ok({ child, ready: JSON.parse(line) as ReadyLine, stdout: () => out, stderr: () => err, done });
      } catch (e) {
        // No handle reaches the caller: the process is ended here.
        child.kill('SIGKILL');
        fail(new Error(`ready line is not JSON: ${line}`));
      }
    });
    child.once('exit', (code) => first && fail(new Error(`svc exited with ${code} before its ready line: ${err}`)));
  });
}

export interface SvcProcesses {
  /** startSvc, remembered from the moment it is spawned (before its ready line). */
  start(args: string[], env?: Record<string, string>, launch?: Launch): Promise<SvcProcess>;
  /** SIGKILL to each one still running, then waits for it to exit: for the test's finally. */
  end(): Promise<void>;
}

/**
 * The `svc emulator start` processes of one test. A test that stops them itself (SIGTERM and
 * its exit code are often what it checks) still calls end() in its finally: a failed
 * assertion, or a start that never printed its ready line, must not leave an emulator running.
 * Given the test's signal (t.signal), they are also ended when the test times out or is
 * cancelled: then the test's own await may never settle, and its finally never run.
 */
export function svcProcesses(signal?: AbortSignal): SvcProcesses {
  const children: ChildProcess[] = [];
  const end = () =>
    Promise.all(
      children.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGKILL');
        return exited;
      }),
    ).then(() => undefined);
  signal?.addEventListener('abort', () => void end(), { once: true });
  return {
    start: (args, env, launch) => startSvc(args, env, launch, (child) => children.push(child)),
    end,
  };
}

/** Runs `svc …` to completion (for commands that exit by themselves). */
export function runSvc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [svcBin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
