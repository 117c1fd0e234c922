import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { packageFile } from '../../emulator/server.js';

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
}

/** `svc emulator start --json …`, launched as `launch` says: resolves with the parsed ready line. */
export function startSvc(args: string[], env?: Record<string, string>, { nodeArgs = [], cpus, cwd }: Launch = {}): Promise<SvcProcess> {
  const argv = [...nodeArgs, svcBin, 'emulator', 'start', '--json', ...args];
  const [command, commandArgs] = cpus === undefined ? [process.execPath, argv] : ['taskset', ['-c', cpus, process.execPath, ...argv]];
  const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env });
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

/** Runs `svc …` to completion (for commands that exit by themselves). */
export function runSvc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [svcBin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
