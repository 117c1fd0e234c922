import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { svcBin } from '../helpers/svc-process.js';
import { tempDir } from '../helpers/emulator.js';

// Running an image's command lines as plain processes, where no Docker engine runs: each
// process goes into a network namespace of the test's own (`ip netns exec`: 0.0.0.0:4242 is
// private to it), under the image's unprivileged user (setpriv), with the image's ENV and
// nothing of the test runner's environment but PATH; the emulator's process also gets /data as
// a private tmpfs (`unshare -m` + `mount -t tmpfs`, owned by that user as the image's chown
// makes it). `svc` is the repository's built bin/svc.js and `node` this node.

/** The uid of the official node images' `node` user (USER node), or a numeric USER as is. */
export function uidOf(user: string): number {
  if (user === 'node') return 1000;
  if (/^\d+(:\d+)?$/.test(user)) return Number(user.split(':')[0]);
  throw new Error(`USER ${user}: the tests know the uid of "node" and numeric users only`);
}

/** Why these tests cannot run here, or undefined when they can (Linux, root, ip, unshare, setpriv). */
export function processesUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces are Linux only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'a network namespace and a tmpfs mount need root (run as root, e.g. in the CI container)';
  for (const [tool, args] of [['ip', ['-V']], ['unshare', ['--version']], ['setpriv', ['--version']]] as const) {
    const r = spawnSync(tool, args, { encoding: 'utf8' });
    if (r.error || r.status !== 0) return `needs \`${tool}\` (iproute2 / util-linux)`;
  }
  return undefined;
}

/** argv with `svc` and `node` resolved to what runs them here. */
export function resolveArgv(argv: string[]): string[] {
  const [first, ...rest] = argv;
  if (first === 'svc') return [process.execPath, svcBin, ...rest];
  if (first === 'node') return [process.execPath, ...rest];
  throw new Error(`cannot run "${first}" here: only svc and node are known`);
}

export interface Run {
  ns: string;
  argv: string[];
  /** The whole environment (PATH is added). */
  env: Record<string, string>;
  uid: number;
  cwd: string;
  /** Mount a fresh tmpfs here (owned by uid) for this process alone. */
  tmpfs?: string;
}

/** [command, args] for spawn: `ip netns exec ns [unshare -m sh -c 'mount …'] setpriv … argv`. */
function commandLine(run: Run): [string, string[]] {
  const asUser = ['setpriv', `--reuid=${run.uid}`, `--regid=${run.uid}`, '--clear-groups', '--', ...resolveArgv(run.argv)];
  if (run.tmpfs === undefined) return ['ip', ['netns', 'exec', run.ns, ...asUser]];
  // "$@" keeps every argument as it is; the mount is private to this mount namespace.
  const script = `mount -t tmpfs -o uid=${run.uid},gid=${run.uid},mode=0755 tmpfs "$0" && exec "$@"`;
  return ['ip', ['netns', 'exec', run.ns, 'unshare', '--mount', 'sh', '-c', script, run.tmpfs, ...asUser]];
}

const spawnEnv = (run: Run) => ({ PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', ...run.env });

export interface Started {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  done: Promise<number | NodeJS.Signals | null>;
  /** Signals its whole process group. */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then waits for the exit (SIGKILL to its group after 10 s). */
  stop(): Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts a long-running process. `ip netns exec`, unshare, sh and setpriv all exec in place, so
 * the child's pid is the program's own; it leads a process group of its own, so a kill reaches
 * what it started too (a test service's suites).
 */
export function start(run: Run): Started {
  const [command, args] = commandLine(run);
  const child = spawn(command, args, { cwd: run.cwd, env: spawnEnv(run), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone
    }
  };
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const done = new Promise<number | NodeJS.Signals | null>((ok) => child.once('close', (code, signal) => ok(signal ?? code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    done,
    kill,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const guard = setTimeout(() => kill('SIGKILL'), 10_000);
      const result = await done;
      clearTimeout(guard);
      return result;
    },
  };
}

/** Runs a process to its end (a health check, a test runner). */
export function runToEnd(run: Run, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const started = start(run);
  const guard = setTimeout(() => started.kill('SIGKILL'), timeoutMs);
  return started.done.then((code) => {
    clearTimeout(guard);
    return { code: typeof code === 'number' ? code : null, stdout: started.stdout(), stderr: started.stderr() };
  });
}

/** A network namespace with only loopback, up. */
export function freshNamespace(tag: string): { ns: string; destroy(): void } {
  const ns = `svc-ct-${process.pid}-${tag}`;
  for (const args of [['netns', 'add', ns], ['-n', ns, 'link', 'set', 'lo', 'up']]) {
    const r = spawnSync('ip', args, { encoding: 'utf8' });
    if (r.status !== 0) {
      spawnSync('ip', ['netns', 'del', ns]);
      throw new Error(`ip ${args.join(' ')}: ${r.stderr.trim() || r.error?.message}`);
    }
  }
  return { ns, destroy: () => void spawnSync('ip', ['netns', 'del', ns]) };
}

// The mount point (/data) is a folder of the machine's own filesystem: the tmpfs on it is
// private, the folder is not. Two test files may use it at once (run-tests runs files in
// parallel), so users register in USERS first and the last one out removes the folder, only
// if one of them created it (removing it under the other's mount would detach that mount).
const USERS = '/tmp/svc-container-test-mount-users';
let registrations = 0;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The mount point (e.g. /data) exists while the test runs; removed after by the last user if a test made it. */
export function mountPoint(path: string): { release(): void } {
  const dir = join(USERS, path.replace(/\//g, '_'));
  mkdirSync(dir, { recursive: true });
  const me = join(dir, `${process.pid}-${++registrations}`);
  // Registered before looking at the folder: a user leaving meanwhile sees this one.
  writeFileSync(me, '');
  if (!existsSync(path)) {
    mkdirSync(path, { recursive: true });
    writeFileSync(join(dir, 'created'), '');
  }
  return {
    release() {
      rmSync(me, { force: true });
      const others = readdirSync(dir).filter((f) => f !== 'created' && alive(Number(f.split('-')[0])));
      if (others.length > 0 || !existsSync(join(dir, 'created'))) return;
      rmSync(join(dir, 'created'), { force: true });
      rmdirSync(path);
      rmSync(dir, { recursive: true, force: true });
      try {
        rmdirSync(USERS);
      } catch {
        // Another file registered meanwhile: the folder stays for it.
      }
    },
  };
}

/** An empty folder the image's user can enter but not write, like the image's root-owned WORKDIR. */
export function readOnlyWorkdir(): string {
  const dir = tempDir('svc-ct-workdir-');
  chmodSync(dir, 0o755);
  return dir;
}

/** A process's environment, uid and view of a folder, read from /proc (root reads any process's). */
export function procView(pid: number) {
  return {
    env(): Record<string, string> {
      const env: Record<string, string> = {};
      for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean)) {
        const eq = entry.indexOf('=');
        env[entry.slice(0, eq)] = entry.slice(eq + 1);
      }
      return env;
    },
    uid(): number {
      return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
    },
    /** A path as the process sees it (through its own mount namespace). */
    path: (p: string) => `/proc/${pid}/root${p}`,
  };
}
